import type { AppContext } from '@aerie/panel/app-context';
import { findServerRow } from '@aerie/panel/features/servers/servers.repository';
import { notFound } from '@aerie/panel/http/errors';
import { idParam, validateRouteBody } from '@aerie/panel/http/validate';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { transferBodySchema } from './transfer-body';

/**
 * `POST /api/application/servers/{id}/transfer` and `…/transfer/cancel` (Aerie's: Pterodactyl has them on its
 * admin pages only), behind the `servers` write bit like the other server routes. Check order: 404, 409 (state),
 * 422 (body, node, allocations, room).
 */
export async function serverTransferRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const config = { adminResource: 'servers' } as const;
  const serverOf = async (request: FastifyRequest) => {
    const server = await findServerRow(ctx.db, { id: idParam((request.params as { id: string }).id) });
    if (!server) throw notFound();
    return server;
  };

  app.post(
    '/:id/transfer',
    {
      config: {
        ...config,
        body: transferBodySchema,
        summary: 'Transfer a server to another node (202: the nodes move its files in the background)',
      },
    },
    async (request, reply) => {
      const server = await serverOf(request);
      await ctx.transfers.assertTransferable(server);
      await ctx.transfers.start(server, validateRouteBody<typeof transferBodySchema>(request));
      return reply.status(202).send();
    },
  );

  app.post(
    '/:id/transfer/cancel',
    { config: { ...config, summary: "Cancel a server's running transfer" } },
    async (request, reply) => {
      await ctx.transfers.cancel(await serverOf(request));
      return reply.status(204).send();
    },
  );
}

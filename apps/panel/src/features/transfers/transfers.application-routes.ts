import type { AppContext } from '@aerie/panel/app-context';
import { serverTransformer } from '@aerie/panel/features/admin-servers/server.transformer';
import { auditFor } from '@aerie/panel/features/audit/audit-request';
import { findServerRow } from '@aerie/panel/features/servers/servers.repository';
import { notFound } from '@aerie/panel/http/errors';
import { idParam, validateRouteBody } from '@aerie/panel/http/validate';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { transferBodySchema } from './transfer-body';

/**
 * `POST /api/application/servers/{id}/transfer` and `…/transfer/cancel` (Aerie's: Pterodactyl has them on its
 * admin pages only), behind the `servers` write bit like the other server routes. Check order: 404, 409 (state),
 * 422 (body, node, allocations, room). Their audit entries are about the server (a transfer is no audit subject).
 */
export async function serverTransferRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const config = { adminResource: 'servers' } as const;
  const serverOf = async (request: FastifyRequest) => {
    const server = await findServerRow(ctx.db, { id: idParam((request.params as { id: string }).id) });
    if (!server) throw notFound();
    return server;
  };
  const audit = (request: FastifyRequest) => auditFor(ctx.audit, request, serverTransformer);

  app.post(
    '/:id/transfer',
    {
      config: {
        ...config,
        audit: 'server.transfer',
        body: transferBodySchema,
        summary: 'Transfer a server to another node (202: the nodes move its files in the background)',
      },
    },
    async (request, reply) => {
      const server = await serverOf(request);
      await ctx.transfers.assertTransferable(server);
      await ctx.transfers.start(
        server,
        validateRouteBody<typeof transferBodySchema>(request),
        audit(request),
      );
      return reply.status(202).send();
    },
  );

  app.post(
    '/:id/transfer/cancel',
    {
      config: { ...config, audit: 'server.transfer_cancel', summary: "Cancel a server's running transfer" },
    },
    async (request, reply) => {
      await ctx.transfers.cancel(await serverOf(request), audit(request));
      return reply.status(204).send();
    },
  );
}

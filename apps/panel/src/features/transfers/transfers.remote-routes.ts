import type { AppContext } from '@aerie/panel/app-context';
import { remoteNodeOf } from '@aerie/panel/features/nodes/node-auth';
import { validateBody } from '@aerie/panel/http/validate';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { failureReportSchema } from './transfer-body';

const uuidOf = (request: FastifyRequest) => (request.params as { uuid: string }).uuid;

/**
 * `/api/remote/servers/{uuid}/transfer/success|failure` (reference/wings.md §1.5), behind the remote surface's node
 * token: success from the transfer's target only, failure from either end; 204, also for a transfer that already
 * ended. GET as well as POST, as Pterodactyl routes them for older Wings.
 */
export async function transfersRemoteRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  for (const method of ['GET', 'POST'] as const) {
    app.route({
      method,
      url: '/servers/:uuid/transfer/success',
      handler: async (request, reply) => {
        await ctx.transferReports.succeeded(remoteNodeOf(request), uuidOf(request));
        return reply.status(204).send();
      },
    });
    app.route({
      method,
      url: '/servers/:uuid/transfer/failure',
      handler: async (request, reply) => {
        const { reason } = validateBody(failureReportSchema, request.body ?? {});
        await ctx.transferReports.failed(remoteNodeOf(request), uuidOf(request), reason);
        return reply.status(204).send();
      },
    });
  }
}

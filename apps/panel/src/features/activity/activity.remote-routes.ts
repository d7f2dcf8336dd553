import type { AppContext } from '@aerie/panel/app-context';
import { remoteNodeOf } from '@aerie/panel/features/nodes/node-auth';
import { validateRouteBody } from '@aerie/panel/http/validate';
import type { FastifyInstance } from 'fastify';
import { assertShallowBody, remoteActivityBodySchema } from './remote-activity-body';

/**
 * POST /api/remote/activity: what a daemon did for its users (reference/wings.md §1.4; its SFTP server's events),
 * behind the remote surface's node token. The whole body is checked first (a bad row refuses the request and
 * writes nothing); then rows about the node's own servers and known users are written in one transaction, the
 * others dropped (see NodeActivity). 204.
 */
export async function activityRemoteRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  app.post(
    '/activity',
    { config: { body: remoteActivityBodySchema, summary: 'Record what a node did for its users (SFTP)' } },
    async (request, reply) => {
      assertShallowBody(request.body);
      // Paths are kept as they are: a file may well be named with surrounding spaces.
      const input = validateRouteBody<typeof remoteActivityBodySchema>(request, { trimStrings: false });
      await ctx.nodeActivity.record(remoteNodeOf(request), input.data);
      return reply.status(204).send();
    },
  );
}

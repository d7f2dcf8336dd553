import type { AppContext } from '@aerie/panel/app-context';
import { activityRemoteRoutes } from '@aerie/panel/features/activity/activity.remote-routes';
import { backupsRemoteRoutes } from '@aerie/panel/features/backups/backups.remote-routes';
import { authenticateNode } from '@aerie/panel/features/nodes/node-auth';
import type { NodeRecord } from '@aerie/panel/features/nodes/node-record';
import { serversRemoteRoutes } from '@aerie/panel/features/servers/servers.remote-routes';
import { sftpAuthRemoteRoutes } from '@aerie/panel/features/sftp/sftp-auth.remote-routes';
import { transfersRemoteRoutes } from '@aerie/panel/features/transfers/transfers.remote-routes';
import type { FastifyInstance } from 'fastify';

declare module 'fastify' {
  interface FastifyRequest {
    /** The node calling /api/remote, set by its authentication hook. */
    remoteNode: NodeRecord | null;
  }
}

/**
 * /api/remote/*: what a daemon asks the panel (reference/wings.md §1.4), every route behind its node's
 * `Bearer <token id>.<token>` (401 → 400 → 403), then its feature's handler, which finds the server among the
 * node's own.
 */
export async function remoteSurface(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  app.decorateRequest('remoteNode', null);
  app.addHook('onRequest', async (request) => {
    request.remoteNode = await authenticateNode(ctx.db, ctx.secretBox, request);
  });
  await app.register(serversRemoteRoutes, { ctx });
  await app.register(sftpAuthRemoteRoutes, { ctx });
  await app.register(backupsRemoteRoutes, { ctx });
  await app.register(transfersRemoteRoutes, { ctx });
  await app.register(activityRemoteRoutes, { ctx });
}

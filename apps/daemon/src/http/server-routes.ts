import { backupDeleteRoute, backupRoutes } from '@aerie/daemon/backups/backup-routes';
import type { BackupService } from '@aerie/daemon/backups/backup-service';
import { HttpError, NOT_FOUND_MESSAGE } from '@aerie/daemon/http-kit/http-errors';
import { panelFailure, serverOf } from '@aerie/daemon/http-kit/route-helpers';
import { pullRoutes } from '@aerie/daemon/pull/pull-routes';
import { defaultPullSettings } from '@aerie/daemon/pull/pull-settings';
import { RemotePulls } from '@aerie/daemon/pull/remote-pulls';
import type { ManagedServer } from '@aerie/daemon/server/managed-server';
import type { ServerManager } from '@aerie/daemon/server/server-manager';
import type { DaemonCreateServerBody } from '@aerie/shared/daemon/remote-wire';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { fileRoutes } from './file-routes';
import { powerRoutes } from './power-routes';
import { presentServer } from './server-view';
import { type DaemonTransfers, outgoingTransferRoutes } from './transfer-routes';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;
export const INVALID_UUID_MESSAGE = 'The uuid field must be a valid version 4 UUID.';

/** `/api/servers` and `/api/servers/:server/*`; mounted inside the node-token scope. */
export async function serverRoutes(
  app: FastifyInstance,
  manager: ServerManager,
  backups?: BackupService,
  pulls: RemotePulls = new RemotePulls(defaultPullSettings()),
  transfers?: DaemonTransfers,
): Promise<void> {
  app.get('/api/servers', async () => manager.list().map(presentServer));

  app.post<{ Body: Partial<DaemonCreateServerBody> | undefined }>('/api/servers', async (request, reply) => {
    const uuid = request.body?.uuid;
    if (typeof uuid !== 'string' || !UUID_V4.test(uuid)) throw new HttpError(422, INVALID_UUID_MESSAGE);
    await manager.create(uuid.toLowerCase(), request.body?.start_on_completion === true).catch(panelFailure);
    return reply.status(202).send();
  });

  if (backups) await backupDeleteRoute(app, backups);

  await app.register(async (scope) => {
    scope.decorateRequest('managedServer', null);
    scope.addHook<{ Params: { server: string } }>('preHandler', async (request) => {
      const server = manager.get(request.params.server);
      if (!server) throw new HttpError(404, NOT_FOUND_MESSAGE);
      (request as FastifyRequest & { managedServer: ManagedServer }).managedServer = server;
    });

    scope.get('/api/servers/:server', async (request) => presentServer(serverOf(request)));

    scope.delete('/api/servers/:server', async (request, reply) => {
      await manager.delete(serverOf(request).uuid);
      return reply.status(204).send();
    });

    scope.get<{ Querystring: { size?: string } }>('/api/servers/:server/logs', async (request) => {
      const size = Number.parseInt(request.query.size ?? '', 10);
      // Wings: at most 100 lines; anything missing, zero or negative means 100.
      const lines = Number.isInteger(size) && size > 0 ? Math.min(size, 100) : 100;
      return { data: serverOf(request).recentLogs(lines) };
    });

    await powerRoutes(scope);
    await fileRoutes(scope);
    await pullRoutes(scope, pulls);
    if (backups) await backupRoutes(scope, backups);
    if (transfers) await outgoingTransferRoutes(scope, transfers);
  });
}

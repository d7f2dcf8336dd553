import type { AppContext } from '@aerie/panel/app-context';
import { serverActivityRoutes } from '@aerie/panel/features/activity/activity.client-routes';
import { backupRoutes } from '@aerie/panel/features/backups/backups.client-routes';
import { websocketRoutes } from '@aerie/panel/features/console/websocket.client-routes';
import { serverDatabaseRoutes } from '@aerie/panel/features/databases/server-databases.client-routes';
import { fileRoutes } from '@aerie/panel/features/files/files.client-routes';
import { serverMountRoutes } from '@aerie/panel/features/mounts/mounts.client-routes';
import { networkRoutes } from '@aerie/panel/features/network/network.client-routes';
import { scheduleTaskRoutes } from '@aerie/panel/features/schedules/schedule-tasks.client-routes';
import { scheduleRoutes } from '@aerie/panel/features/schedules/schedules.client-routes';
import { serverSettingsRoutes } from '@aerie/panel/features/server-settings/server-settings.client-routes';
import { powerRoutes } from '@aerie/panel/features/servers/power.client-routes';
import { serverRoutes } from '@aerie/panel/features/servers/server.client-routes';
import { serverAccessHook } from '@aerie/panel/features/servers/server-access.hook';
import { startupRoutes } from '@aerie/panel/features/startup/startup.client-routes';
import { subuserRoutes } from '@aerie/panel/features/subusers/subusers.client-routes';
import type { FastifyInstance } from 'fastify';

/**
 * /api/client/servers/{server}/…: every route passes the server access hook first (404 → 409 → 403, driven by the
 * route's config), then its feature's handler. A feature adds its routes here with their `permission`.
 */
export async function clientServerSurface(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  app.decorateRequest('serverAccess', null);
  app.decorateRequest('serverChild', null);
  app.addHook('preHandler', serverAccessHook);

  await app.register(serverRoutes, { ctx });
  await app.register(websocketRoutes, { ctx });
  await app.register(powerRoutes, { ctx });
  await app.register(fileRoutes, { ctx });
  await app.register(serverSettingsRoutes, { ctx });
  await app.register(startupRoutes, { ctx });
  await app.register(networkRoutes, { ctx });
  await app.register(serverMountRoutes, { ctx });
  await app.register(scheduleRoutes, { ctx });
  await app.register(scheduleTaskRoutes, { ctx });
  await app.register(subuserRoutes, { ctx });
  await app.register(backupRoutes, { ctx });
  await app.register(serverDatabaseRoutes, { ctx });
  await app.register(serverActivityRoutes, { ctx });
}

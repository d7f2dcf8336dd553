import type { ActivityLog } from '@aerie/panel/features/activity/activity-log';
import type { ServerManagementService } from '@aerie/panel/features/admin-servers/server-management.service';
import type { Infrastructure } from '@aerie/panel/infrastructure';
import { DatabaseHostsService } from './database-hosts.service';
import { DatabaseIds } from './database-ids';
import { registerPasswordOpener } from './server-database.transformer';
import { ServerDatabasesService } from './server-databases.service';

/**
 * Database hosts (the admin's MySQL/MariaDB and PostgreSQL servers) and the per-server databases made on them:
 * the service the client and Application API routes call, and the hashids of their ids. A deleted server's
 * databases are dropped on their hosts once its daemon has let it go.
 */
export function createDatabasesFeature(
  { db, secretBox, clock, log, appKey }: Infrastructure,
  { activity, serverManagement }: { activity: ActivityLog; serverManagement: ServerManagementService },
) {
  const serverDatabases = new ServerDatabasesService({ db, secretBox, clock, log, activity });
  registerPasswordOpener(db, (database) => secretBox.open(database.password));
  serverManagement.afterDaemonDelete((server) => serverDatabases.dropAllOf(server.id));
  return {
    databaseHosts: new DatabaseHostsService({ db, secretBox, clock }),
    serverDatabases,
    databaseIds: new DatabaseIds(appKey),
  };
}

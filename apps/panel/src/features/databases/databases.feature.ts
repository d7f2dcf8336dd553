import type { ActivityLog } from '@aerie/panel/features/activity/activity-log';
import type { ServerDeletionService } from '@aerie/panel/features/admin-servers/server-deletion.service';
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
  { activity, serverDeletion }: { activity: ActivityLog; serverDeletion: ServerDeletionService },
) {
  const serverDatabases = new ServerDatabasesService({ db, secretBox, clock, log, activity });
  registerPasswordOpener(db, (database) => secretBox.open(database.password));
  serverDeletion.afterDaemonDelete((server) => serverDatabases.dropAllOf(server.id));
  return {
    databaseHosts: new DatabaseHostsService({ db, secretBox, clock }),
    serverDatabases,
    databaseIds: new DatabaseIds(appKey),
  };
}

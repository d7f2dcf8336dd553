import type { ServerDatabaseItem } from '@aerie/shared/databases/databases-wire';
import type { DatabaseIds } from './database-ids';
import type { ServerDatabaseWithHost } from './server-database';

/**
 * `server_database` of the client API (reference §6): the hashid, the host's endpoint, the name, username,
 * connections_from and max_connections. `password`: undefined leaves `relationships` out (not asked for), null is
 * `null_resource` (asked for without `database.view_password`), a string the `database_password` item.
 */
export function presentServerDatabase(
  ids: DatabaseIds,
  database: ServerDatabaseWithHost,
  password?: string | null,
): ServerDatabaseItem {
  return {
    object: 'server_database',
    attributes: {
      id: ids.encode(database.id),
      host: { address: database.host.host, port: database.host.port },
      name: database.database,
      username: database.username,
      connections_from: database.remote,
      max_connections: database.maxConnections,
      ...(password === undefined
        ? {}
        : {
            relationships: {
              password:
                password === null
                  ? { object: 'null_resource', attributes: null }
                  : { object: 'database_password', attributes: { password } },
            },
          }),
    },
  };
}

import type { Item, List, NullResource } from '../servers/server-wire';

/**
 * Wire shapes of `/api/client/servers/{server}/databases*` (reference §6 `server_database`). `id` is the hashid the
 * routes take back; the password is only in `relationships.password`, and only for holders of
 * `database.view_password` (`null_resource` otherwise).
 */
export type DatabasePasswordItem = Item<'database_password', { password: string }>;

export interface ServerDatabaseAttributes {
  /** Hashid (8 or more of a–z, A–Z, 0–9); the routes also take the numeric id. */
  id: string;
  /** Where to connect: the database host's address and port. */
  host: { address: string; port: number };
  /** The name on the host, `s{server}_{name}`. */
  name: string;
  /** `u{server}_` and 10 random letters and digits. */
  username: string;
  /** Where the user may connect from (`%` = anywhere). On a PostgreSQL host it is stored and shown, not enforced. */
  connections_from: string;
  /** 0 = no limit beyond the host's own. */
  max_connections: number;
  /** Only when asked for (`include=password`) on a list, always tried on create and rotate. */
  relationships?: { password: DatabasePasswordItem | NullResource };
}

export type ServerDatabaseItem = Item<'server_database', ServerDatabaseAttributes>;
export type ServerDatabaseListResponse = List<ServerDatabaseItem>;
export type ServerDatabaseResponse = ServerDatabaseItem;

import { readDate } from '@aerie/panel/db/dialect';
import type { DatabasesTable } from '@aerie/panel/db/schema-databases';
import type { Selectable } from 'kysely';
import type { DatabaseHost } from './database-host';

/** A per-server database as the panel stores it (reference §6 `server_database`, application §3.6). */
export interface ServerDatabase {
  id: number;
  serverId: number;
  hostId: number;
  /** The name on the host, `s{server}_{name}`. */
  database: string;
  username: string;
  /** connections_from. */
  remote: string;
  /** Sealed with the app key. */
  password: string;
  maxConnections: number;
  createdAt: Date;
  updatedAt: Date;
}

/** A database with its host, what every answer shows (the endpoint) and every change needs (the host's admin). */
export interface ServerDatabaseWithHost extends ServerDatabase {
  host: DatabaseHost;
}

export const toServerDatabase = (row: Selectable<DatabasesTable>): ServerDatabase => ({
  id: row.id,
  serverId: row.server_id,
  hostId: row.database_host_id,
  database: row.database,
  username: row.username,
  remote: row.remote,
  password: row.password,
  maxConnections: Number(row.max_connections ?? 0),
  createdAt: readDate(row.created_at),
  updatedAt: readDate(row.updated_at),
});

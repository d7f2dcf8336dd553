import { readDate } from '@aerie/panel/db/dialect';
import type { DatabaseHostsTable } from '@aerie/panel/db/schema-application';
import type { Selectable } from 'kysely';

export interface DatabaseHost {
  id: number;
  name: string;
  driver: 'mysql' | 'postgres';
  host: string;
  port: number;
  username: string;
  /** Sealed with the app key. */
  password: string;
  nodeId: number | null;
  createdAt: Date;
  updatedAt: Date;
}

export const toDatabaseHost = (row: Selectable<DatabaseHostsTable>): DatabaseHost => ({
  id: row.id,
  name: row.name,
  driver: row.driver === 'postgres' ? 'postgres' : 'mysql',
  host: row.host,
  port: row.port,
  username: row.username,
  password: row.password,
  nodeId: row.node_id,
  createdAt: readDate(row.created_at),
  updatedAt: readDate(row.updated_at),
});

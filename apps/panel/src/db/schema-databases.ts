import type { ColumnType, Generated } from 'kysely';
import type { DbDate } from './schema-columns';

/** Tables of migration 0009-server-databases. Read dates through db/dialect.ts. */
type CreatedAt = ColumnType<DbDate, Date, never>;
type Timestamp = ColumnType<DbDate, Date, Date>;

export interface DatabasesTable {
  id: Generated<number>;
  server_id: number;
  database_host_id: number;
  /** The name on the host: `s{server}_{name}`, at most 48 characters. */
  database: string;
  /** `u{server}_` and 10 random letters and digits. */
  username: string;
  /** Where the user may connect from (`%` = anywhere); on a PostgreSQL host stored, not enforced. */
  remote: ColumnType<string, string | undefined, string>;
  /** Sealed with the app key (crypto/secret-box.ts). */
  password: string;
  /** 0 or null: no limit of the panel's. */
  max_connections: ColumnType<number | null, number | null | undefined, number | null>;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

export interface DatabaseTables {
  databases: DatabasesTable;
}

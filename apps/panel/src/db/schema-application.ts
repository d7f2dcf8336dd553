import type { ColumnType, Generated } from 'kysely';
import type { DbDate } from './schema-columns';

/** Tables of migration 0004-application-api (and the columns it adds). Read dates through db/dialect.ts. */
type CreatedAt = ColumnType<DbDate, Date, never>;
type Timestamp = ColumnType<DbDate, Date, Date>;

export interface LocationsTable {
  id: Generated<number>;
  /** 1–60 characters, unique: the code billing modules and deployment pick a location by. */
  short: string;
  long: string | null;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

export interface DatabaseHostsTable {
  id: Generated<number>;
  name: string;
  /** `mysql` (MySQL or MariaDB) or `postgres`. */
  driver: ColumnType<string, string | undefined, string>;
  host: string;
  port: number;
  username: string;
  /** Sealed with the app key (crypto/secret-box.ts). */
  password: string;
  max_databases: number | null;
  node_id: number | null;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

/** An application key's access to one resource: bit 1 read, bit 2 write (0 none, 1 read, 3 read and write). */
type ResourceBits = ColumnType<number, number | undefined, number>;

/** The `r_*` columns of api_keys (0 on account keys). */
export interface ApplicationKeyColumns {
  r_servers: ResourceBits;
  r_nodes: ResourceBits;
  r_allocations: ResourceBits;
  r_users: ResourceBits;
  r_locations: ResourceBits;
  r_nests: ResourceBits;
  r_eggs: ResourceBits;
  r_database_hosts: ResourceBits;
  r_server_databases: ResourceBits;
  r_mounts: ResourceBits;
  /** Migration 0015: the admin audit log (read only: it has no write routes). */
  r_audit_log: ResourceBits;
}

export interface ApplicationTables {
  locations: LocationsTable;
  database_hosts: DatabaseHostsTable;
}

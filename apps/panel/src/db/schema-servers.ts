import type { ColumnType, Generated } from 'kysely';
import type { DbBool, DbDate } from './schema-columns';

/** Tables of migration 0003-servers. Read booleans and dates through db/dialect.ts. */
type Flag = ColumnType<DbBool, boolean | undefined, boolean>;
type NullableFlag = ColumnType<DbBool | null, boolean | null | undefined, boolean | null>;
type CreatedAt = ColumnType<DbDate, Date, never>;
type Timestamp = ColumnType<DbDate, Date, Date>;
type NullableTimestamp = ColumnType<DbDate | null, Date | null | undefined, Date | null>;

export interface NodesTable {
  id: Generated<number>;
  uuid: string;
  name: string;
  description: string | null;
  fqdn: string;
  /** `http` or `https`: how the panel and browsers reach the daemon. */
  scheme: string;
  behind_proxy: Flag;
  maintenance_mode: Flag;
  /** MiB */
  memory: number;
  memory_overallocate: Generated<number>;
  /** MiB */
  disk: number;
  disk_overallocate: Generated<number>;
  /** MiB */
  upload_size: Generated<number>;
  daemon_listen: number;
  daemon_sftp: number;
  daemon_base: string;
  /** 16 characters, sent in clear before the dot of the bearer token. */
  daemon_token_id: string;
  /** The token sealed with the app key (crypto/secret-box.ts); it also signs the daemon JWTs. */
  daemon_token: string;
  /** Migration 0004: null only for a node made by a test helper before its location existed. */
  location_id: number | null;
  /** Offered to automatic deployment (migration 0004). */
  public: Flag;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

export interface AllocationsTable {
  id: Generated<number>;
  node_id: number;
  ip: string;
  ip_alias: string | null;
  port: number;
  server_id: number | null;
  notes: string | null;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

export interface NestsTable {
  id: Generated<number>;
  uuid: string;
  author: string;
  name: string;
  description: string | null;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

export interface EggsTable {
  id: Generated<number>;
  uuid: string;
  nest_id: number;
  author: string;
  name: string;
  description: string | null;
  /** JSON array of strings, or null. */
  features: string | null;
  /** JSON object label → image. */
  docker_images: string;
  /** JSON array of globs, or null. */
  file_denylist: string | null;
  update_url: string | null;
  /** The export's JSON texts, stored as exported. */
  config_files: string | null;
  config_startup: string | null;
  config_logs: string | null;
  config_stop: string | null;
  config_from: number | null;
  startup: string | null;
  script_container: string;
  script_entry: string;
  script_install: string | null;
  script_is_privileged: Flag;
  copy_script_from: number | null;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

export interface EggVariablesTable {
  id: Generated<number>;
  egg_id: number;
  name: string;
  description: string;
  env_variable: string;
  default_value: string;
  user_viewable: Flag;
  user_editable: Flag;
  rules: string;
  sort: number | null;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

export interface ServersTable {
  id: Generated<number>;
  uuid: string;
  /** The first 8 characters of the uuid: the identifier in URLs. */
  uuid_short: string;
  external_id: string | null;
  node_id: number;
  name: string;
  description: string;
  /** null, installing, install_failed, reinstall_failed, suspended or restoring_backup. */
  status: string | null;
  skip_scripts: Flag;
  owner_id: number;
  memory: number;
  swap: number;
  disk: number;
  io: number;
  cpu: number;
  threads: string | null;
  oom_disabled: Flag;
  /** The primary allocation. */
  allocation_id: number;
  nest_id: number;
  egg_id: number;
  startup: string;
  image: string;
  allocation_limit: number | null;
  database_limit: number | null;
  backup_limit: number | null;
  installed_at: NullableTimestamp;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

export interface ServerVariablesTable {
  id: Generated<number>;
  server_id: number;
  variable_id: number;
  variable_value: string;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

export interface SubusersTable {
  id: Generated<number>;
  user_id: number;
  server_id: number;
  /** JSON array of permission strings, as stored. */
  permissions: string;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

export interface ServerTransfersTable {
  id: Generated<number>;
  server_id: number;
  /** null while the transfer runs. */
  successful: NullableFlag;
  /** Migration 0014 from here on. The node left and the node reached (null in older rows, or once deleted). */
  old_node: number | null;
  new_node: number | null;
  /** Primary allocations on each side. */
  old_allocation: number | null;
  new_allocation: number | null;
  /** JSON arrays of allocation ids, or null. */
  old_additional_allocations: string | null;
  new_additional_allocations: string | null;
  /** Why it failed, in words for the admin (Aerie's). */
  failure: string | null;
  archived: Flag;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

export interface ServerTables {
  nodes: NodesTable;
  allocations: AllocationsTable;
  nests: NestsTable;
  eggs: EggsTable;
  egg_variables: EggVariablesTable;
  servers: ServersTable;
  server_variables: ServerVariablesTable;
  subusers: SubusersTable;
  server_transfers: ServerTransfersTable;
}

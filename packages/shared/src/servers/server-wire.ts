/**
 * Wire shapes of the client server API (`GET /api/client`, `GET /api/client/servers/{server}` and its
 * `/resources`, `/websocket`), Pterodactyl's transformers field for field. snake_case as on the wire.
 */
export interface Item<Name extends string, Attributes> {
  object: Name;
  attributes: Attributes;
}

export interface NullResource {
  object: 'null_resource';
  attributes: null;
}

export interface List<T> {
  object: 'list';
  data: T[];
}

export interface Pagination {
  total: number;
  count: number;
  per_page: number;
  current_page: number;
  total_pages: number;
  /** `[]` when there is no neighbour page, else the absolute URLs of the ones that exist. */
  links: [] | { previous?: string; next?: string };
}

export interface AllocationAttributes {
  id: number;
  ip: string;
  ip_alias: string | null;
  port: number;
  notes: string | null;
  is_default: boolean;
}

export interface EggVariableAttributes {
  name: string;
  description: string;
  env_variable: string;
  default_value: string;
  server_value: string | null;
  is_editable: boolean;
  rules: string;
}

export interface SubuserAttributes {
  uuid: string;
  username: string;
  email: string;
  image: string;
  '2fa_enabled': boolean;
  created_at: string;
  permissions: string[];
}

/** null (normal) or one of the conflict states. */
export type ServerStatus =
  | null
  | 'installing'
  | 'install_failed'
  | 'reinstall_failed'
  | 'suspended'
  | 'restoring_backup';

export interface ServerAttributes {
  server_owner: boolean;
  identifier: string;
  internal_id: number;
  uuid: string;
  name: string;
  node: string;
  is_node_under_maintenance: boolean;
  sftp_details: { ip: string; port: number };
  description: string;
  limits: {
    memory: number;
    swap: number;
    disk: number;
    io: number;
    cpu: number;
    threads: string | null;
    oom_disabled: boolean;
  };
  invocation: string;
  docker_image: string;
  egg_features: string[] | null;
  feature_limits: { databases: number | null; allocations: number | null; backups: number | null };
  status: ServerStatus;
  is_suspended: boolean;
  is_installing: boolean;
  is_transferring: boolean;
  relationships: {
    allocations: List<Item<'allocation', AllocationAttributes>>;
    variables: List<Item<'egg_variable', EggVariableAttributes>> | NullResource;
    egg?: Item<'egg', { uuid: string; name: string }>;
    subusers?: List<Item<'server_subuser', SubuserAttributes>> | NullResource;
  };
}

export type ServerItem = Item<'server', ServerAttributes>;

/** `GET /api/client/servers/{server}` */
export interface ServerResponse extends ServerItem {
  meta: { is_server_owner: boolean; user_permissions: string[] };
}

/** `GET /api/client` */
export interface ServerListResponse extends List<ServerItem> {
  meta: { pagination: Pagination };
}

/** `GET /api/client/servers/{server}/resources` */
export interface StatsResponse {
  object: 'stats';
  attributes: {
    current_state: string;
    is_suspended: boolean;
    /**
     * Aerie's: the node's daemon cannot be reached just now (it restarts), so this is the last state it reported,
     * not a live one. Absent otherwise; Pterodactyl's front end ignores it.
     */
    is_node_reconnecting?: boolean;
    resources: {
      memory_bytes: number;
      cpu_absolute: number;
      disk_bytes: number;
      network_rx_bytes: number;
      network_tx_bytes: number;
      uptime: number;
    };
  };
}

/** `GET /api/client/servers/{server}/websocket` */
export interface WebsocketCredentialsResponse {
  data: { token: string; socket: string };
}

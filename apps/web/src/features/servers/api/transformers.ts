import type {
  AllocationAttributes,
  EggVariableAttributes,
  Pagination as PaginationWire,
  ServerAttributes,
  StatsResponse,
} from '@aerie/shared/servers/server-wire';

/*
 * The one place that knows both the panel's snake_case wire format (reference §6, §1.5) and the camelCase models
 * the pages use (spec §3). Every server-related fetcher maps its answer through these functions.
 */

export type ServerWire = ServerAttributes;
export type StatsWire = StatsResponse['attributes'];
export type { PaginationWire };

/** The conflict states a server can be in; null is normal. */
export type ServerStatus = Exclude<ServerAttributes['status'], null>;

export interface Allocation {
  id: number;
  ip: string;
  alias: string | null;
  port: number;
  notes: string | null;
  isDefault: boolean;
}

export interface ServerVariable {
  name: string;
  description: string;
  envVariable: string;
  defaultValue: string;
  serverValue: string | null;
  isEditable: boolean;
  rules: string[];
}

export interface ServerLimits {
  cpu: number;
  memory: number;
  disk: number;
}

/** The full server of GET /api/client/servers/{id}. */
export interface Server {
  id: string;
  internalId: number;
  uuid: string;
  name: string;
  node: string;
  isNodeUnderMaintenance: boolean;
  status: ServerStatus | null;
  invocation: string;
  dockerImage: string;
  sftpDetails: { ip: string; port: number };
  description: string | null;
  limits: ServerLimits;
  eggFeatures: string[];
  featureLimits: { databases: number; backups: number; allocations: number };
  isTransferring: boolean;
  isInstalling: boolean;
  variables: ServerVariable[];
  allocations: Allocation[];
}

/** A row of the dashboard (spec §3 "Server list item"). */
export interface ServerListItem {
  id: string;
  uuid: string;
  name: string;
  description: string | null;
  status: ServerStatus | null;
  isTransferring: boolean;
  limits: ServerLimits;
  allocations: Allocation[];
  node: string;
}

export interface ServerStats {
  /** The daemon's power state (offline, starting, running, stopping). */
  status: string;
  isSuspended: boolean;
  /** The node's daemon is away (it restarts): these are the last figures it gave, not live ones. */
  isNodeReconnecting: boolean;
  memoryUsageInBytes: number;
  cpuUsagePercent: number;
  diskUsageInBytes: number;
  networkRxInBytes: number;
  networkTxInBytes: number;
}

export interface Pagination {
  total: number;
  count: number;
  perPage: number;
  currentPage: number;
  totalPages: number;
}

export interface PaginatedResult<T> {
  items: T[];
  pagination: Pagination;
}

export const toAllocation = (a: AllocationAttributes): Allocation => ({
  id: a.id,
  ip: a.ip,
  alias: a.ip_alias || null,
  port: a.port,
  notes: a.notes,
  isDefault: a.is_default,
});

/** An egg variable as the server (and its Startup page) lists it; `rules` is the rule string split on '|'. */
export const toServerVariable = (v: EggVariableAttributes): ServerVariable => ({
  name: v.name,
  description: v.description,
  envVariable: v.env_variable,
  defaultValue: v.default_value,
  serverValue: v.server_value,
  isEditable: v.is_editable,
  rules: v.rules.split('|'),
});

/** How an allocation is shown everywhere: its alias if it has one, else its IP, then the port. */
export const allocationAddress = (allocation: Pick<Allocation, 'alias' | 'ip' | 'port'>): string =>
  `${allocation.alias || allocation.ip}:${allocation.port}`;

const toStatus = (status: ServerAttributes['status']): ServerStatus | null => status || null;

const allocationsOf = (wire: ServerWire) =>
  (wire.relationships?.allocations?.data ?? []).map(({ attributes }) => toAllocation(attributes));

// A null_resource (no startup.read) carries no data; it reads as no variables.
const variablesOf = (wire: ServerWire) => {
  const variables = wire.relationships?.variables;
  return variables && variables.object === 'list' ? variables.data.map(({ attributes }) => attributes) : [];
};

const toLimits = ({ cpu, memory, disk }: ServerWire['limits']): ServerLimits => ({
  cpu: cpu ?? 0,
  memory: memory ?? 0,
  disk: disk ?? 0,
});

export function toServer(wire: ServerWire): Server {
  const status = toStatus(wire.status);
  return {
    id: wire.identifier,
    internalId: wire.internal_id,
    uuid: wire.uuid,
    name: wire.name,
    node: wire.node,
    isNodeUnderMaintenance: wire.is_node_under_maintenance ?? false,
    status,
    invocation: wire.invocation,
    dockerImage: wire.docker_image,
    sftpDetails: { ip: wire.sftp_details.ip, port: wire.sftp_details.port },
    description: wire.description || null,
    limits: toLimits(wire.limits),
    eggFeatures: wire.egg_features ?? [],
    featureLimits: {
      databases: wire.feature_limits.databases ?? 0,
      backups: wire.feature_limits.backups ?? 0,
      allocations: wire.feature_limits.allocations ?? 0,
    },
    isTransferring: wire.is_transferring,
    isInstalling: status === 'installing' || status === 'install_failed',
    variables: variablesOf(wire).map(toServerVariable),
    allocations: allocationsOf(wire),
  };
}

export const toServerListItem = (wire: ServerWire): ServerListItem => ({
  id: wire.identifier,
  uuid: wire.uuid,
  name: wire.name,
  description: wire.description || null,
  status: toStatus(wire.status),
  isTransferring: wire.is_transferring,
  limits: toLimits(wire.limits),
  allocations: allocationsOf(wire),
  node: wire.node,
});

export const toServerStats = ({
  current_state,
  is_suspended,
  is_node_reconnecting,
  resources,
}: StatsWire): ServerStats => ({
  status: current_state,
  isSuspended: is_suspended,
  isNodeReconnecting: is_node_reconnecting === true,
  memoryUsageInBytes: resources.memory_bytes,
  cpuUsagePercent: resources.cpu_absolute,
  diskUsageInBytes: resources.disk_bytes,
  networkRxInBytes: resources.network_rx_bytes,
  networkTxInBytes: resources.network_tx_bytes,
});

export const toPagination = (wire: PaginationWire): Pagination => ({
  total: wire.total,
  count: wire.count,
  perPage: wire.per_page,
  currentPage: wire.current_page,
  totalPages: wire.total_pages,
});

/** Spec §4 "Conflict state": any status, or a transfer in progress. */
export const isInConflictState = (server: Pick<Server, 'status' | 'isTransferring'>): boolean =>
  server.status !== null || server.isTransferring;

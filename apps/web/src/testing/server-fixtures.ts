import type {
  ServerItem,
  ServerListResponse,
  ServerResponse,
  ServerStatus,
  StatsResponse,
} from '@aerie/shared/servers/server-wire';

/** Panel answers for the server endpoints, typed by the shared wire shapes (reference §6 and §1.5). */

export interface AllocationFixture {
  ip?: string;
  ip_alias?: string | null;
  port?: number;
  is_default?: boolean;
}

export interface ServerFixture {
  identifier?: string;
  internal_id?: number;
  uuid?: string;
  name?: string;
  node?: string;
  description?: string;
  status?: ServerStatus;
  is_transferring?: boolean;
  limits?: { memory: number; disk: number; cpu: number };
  allocations?: AllocationFixture[];
  egg_features?: string[];
  docker_image?: string;
  feature_limits?: Partial<ServerItem['attributes']['feature_limits']>;
}

let counter = 0;

/** A `server` item; every field can be overridden. */
export function serverItem(overrides: ServerFixture = {}): ServerItem {
  counter += 1;
  const n = counter;
  const identifier = overrides.identifier ?? `srv${String(n).padStart(5, '0')}`;
  const allocations = overrides.allocations ?? [{ ip: '10.0.0.5', port: 25565, is_default: true }];
  return {
    object: 'server',
    attributes: {
      server_owner: true,
      identifier,
      internal_id: overrides.internal_id ?? n,
      uuid: overrides.uuid ?? `${identifier}-0000-4000-8000-00000000000${n % 10}`,
      name: overrides.name ?? `Server ${n}`,
      node: overrides.node ?? 'Node A',
      is_node_under_maintenance: false,
      sftp_details: { ip: 'node.example.com', port: 2022 },
      description: overrides.description ?? '',
      limits: {
        swap: 0,
        io: 500,
        threads: null,
        oom_disabled: true,
        ...(overrides.limits ?? { memory: 1024, disk: 2048, cpu: 100 }),
      },
      invocation: 'java -jar server.jar',
      docker_image: overrides.docker_image ?? 'ghcr.io/example/java:21',
      egg_features: overrides.egg_features ?? ['eula'],
      feature_limits: { databases: 1, allocations: 2, backups: 3, ...overrides.feature_limits },
      status: overrides.status ?? null,
      is_suspended: overrides.status === 'suspended',
      is_installing: overrides.status === 'installing' || overrides.status === 'install_failed',
      is_transferring: overrides.is_transferring ?? false,
      relationships: {
        allocations: {
          object: 'list',
          data: allocations.map((a, i) => ({
            object: 'allocation',
            attributes: {
              id: i + 1,
              ip: a.ip ?? '10.0.0.5',
              ip_alias: a.ip_alias ?? null,
              port: a.port ?? 25565 + i,
              notes: null,
              is_default: a.is_default ?? i === 0,
            },
          })),
        },
        variables: { object: 'list', data: [] },
      },
    },
  };
}

/** A paginated `GET /api/client` answer. */
export function serverList(
  items: ServerItem[],
  { currentPage = 1, totalPages = 1, perPage = 50, total = items.length } = {},
): ServerListResponse {
  return {
    object: 'list',
    data: items,
    meta: {
      pagination: {
        total,
        count: items.length,
        per_page: perPage,
        current_page: currentPage,
        total_pages: totalPages,
        links: [],
      },
    },
  };
}

/** A `GET /api/client/servers/{id}` answer with its meta. */
export function serverDetail(
  overrides: ServerFixture = {},
  { owner = true, permissions = [] as string[] } = {},
): ServerResponse {
  return {
    ...serverItem(overrides),
    meta: { is_server_owner: owner, user_permissions: owner ? ['*'] : permissions },
  };
}

/** A `stats` answer of `GET /api/client/servers/{uuid}/resources`. */
export function statsBody({
  state = 'running',
  suspended = false,
  memory = 0,
  cpu = 0,
  disk = 0,
}: {
  state?: string;
  suspended?: boolean;
  memory?: number;
  cpu?: number;
  disk?: number;
} = {}): StatsResponse {
  return {
    object: 'stats',
    attributes: {
      current_state: state,
      is_suspended: suspended,
      resources: {
        memory_bytes: memory,
        cpu_absolute: cpu,
        disk_bytes: disk,
        network_rx_bytes: 0,
        network_tx_bytes: 0,
        uptime: 0,
      },
    },
  };
}

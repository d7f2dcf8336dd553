import type { Db } from '@aerie/panel/db/database';
import { readBool } from '@aerie/panel/db/dialect';
import {
  configPlaceholders,
  eggProcessConfiguration,
} from '@aerie/panel/features/eggs/egg-process-configuration';
import type { NodeRecord } from '@aerie/panel/features/nodes/node-record';
import type { DaemonServerConfiguration } from '@aerie/shared/daemon/remote-wire';

/** The server columns a daemon configuration is built from. */
const columns = [
  'id',
  'uuid',
  'name',
  'description',
  'status',
  'skip_scripts',
  'memory',
  'swap',
  'disk',
  'io',
  'cpu',
  'threads',
  'oom_disabled',
  'allocation_id',
  'egg_id',
  'startup',
  'image',
  'allocation_limit',
] as const;

const nodeServers = (db: Db, nodeId: number) =>
  db.selectFrom('servers').select(columns).where('node_id', '=', nodeId);

type ConfigServerRow = Awaited<ReturnType<ReturnType<typeof nodeServers>['executeTakeFirstOrThrow']>>;

/** The server of this uuid on this node, or null (also when it lives on another node: CVE-2026-26016). */
export async function findNodeServer(db: Db, nodeId: number, uuid: string) {
  return (await nodeServers(db, nodeId).where('uuid', '=', uuid).executeTakeFirst()) ?? null;
}

/** One page of the node's servers in id order, and how many it has in all. */
export async function pageOfNodeServers(db: Db, nodeId: number, page: number, perPage: number) {
  const [rows, count] = await Promise.all([
    nodeServers(db, nodeId)
      .orderBy('id')
      .limit(perPage)
      .offset((page - 1) * perPage)
      .execute(),
    db
      .selectFrom('servers')
      .select((eb) => eb.fn.countAll().as('total'))
      .where('node_id', '=', nodeId)
      .executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.total) };
}

const jsonList = (text: string | null): string[] => {
  try {
    const value: unknown = text ? JSON.parse(text) : [];
    return Array.isArray(value) ? value.filter((entry): entry is string => typeof entry === 'string') : [];
  } catch {
    return [];
  }
};

/**
 * What the daemon runs each server by (Pterodactyl's ServerConfigurationStructureService and
 * EggConfigurationService): settings from the server's limits, egg variables and allocations on this node, and
 * the egg's process configuration, resolved through the egg it copies its configuration from. One query per
 * relation, whatever the number of servers.
 */
export async function daemonConfigurations(
  db: Db,
  node: Pick<NodeRecord, 'id' | 'name'>,
  servers: readonly ConfigServerRow[],
): Promise<Map<number, DaemonServerConfiguration>> {
  const result = new Map<number, DaemonServerConfiguration>();
  if (servers.length === 0) return result;
  const ids = servers.map((server) => server.id);
  const eggIds = [...new Set(servers.map((server) => server.egg_id))];
  const [eggs, allocations, variables] = await Promise.all([
    db
      .selectFrom('eggs')
      .leftJoin('eggs as parent', 'parent.id', 'eggs.config_from')
      .select([
        'eggs.id',
        'eggs.uuid',
        'eggs.config_startup',
        'eggs.config_stop',
        'eggs.config_files',
        'eggs.file_denylist',
        'parent.config_startup as parent_startup',
        'parent.config_stop as parent_stop',
        'parent.config_files as parent_files',
        'parent.file_denylist as parent_denylist',
        'eggs.config_from',
      ])
      .where('eggs.id', 'in', eggIds)
      .execute(),
    db
      .selectFrom('allocations')
      .select(['id', 'ip', 'port', 'server_id'])
      .where('server_id', 'in', ids)
      .where('node_id', '=', node.id)
      .orderBy('id')
      .execute(),
    db
      .selectFrom('server_variables')
      .innerJoin('egg_variables', 'egg_variables.id', 'server_variables.variable_id')
      .select(['server_variables.server_id', 'egg_variables.env_variable', 'server_variables.variable_value'])
      .where('server_variables.server_id', 'in', ids)
      .orderBy('egg_variables.sort')
      .orderBy('egg_variables.id')
      .execute(),
  ]);
  const eggById = new Map(eggs.map((egg) => [egg.id, egg]));
  for (const server of servers) {
    const egg = eggById.get(server.egg_id);
    const own = allocations.filter((allocation) => allocation.server_id === server.id);
    const primary = own.find((allocation) => allocation.id === server.allocation_id) ?? own[0];
    const mappings: Record<string, number[]> = {};
    for (const allocation of own) {
      mappings[allocation.ip] = [...(mappings[allocation.ip] ?? []), allocation.port];
    }
    const values: Record<string, string> = {};
    for (const row of variables)
      if (row.server_id === server.id) values[row.env_variable] = row.variable_value;
    const inherited = egg?.config_from !== null && egg?.config_from !== undefined;
    const pick = <T>(ownValue: T | null, parentValue: T | null) =>
      ownValue ?? (inherited ? parentValue : null);
    const ip = primary?.ip ?? '';
    const port = primary?.port ?? 0;
    result.set(server.id, {
      settings: {
        uuid: server.uuid,
        meta: { name: server.name, description: server.description },
        suspended: server.status === 'suspended',
        environment: {
          ...values,
          P_SERVER_LOCATION: node.name,
          P_SERVER_UUID: server.uuid,
          P_SERVER_ALLOCATION_LIMIT: server.allocation_limit,
        },
        invocation: server.startup,
        skip_egg_scripts: readBool(server.skip_scripts),
        build: {
          memory_limit: server.memory,
          swap: server.swap,
          io_weight: server.io,
          cpu_limit: server.cpu,
          threads: server.threads,
          disk_space: server.disk,
          oom_disabled: readBool(server.oom_disabled),
        },
        container: { image: server.image },
        allocations: { force_outgoing_ip: false, default: { ip, port }, mappings },
        mounts: [],
        egg: {
          id: egg?.uuid ?? '',
          file_denylist: jsonList(inherited ? (egg?.parent_denylist ?? null) : (egg?.file_denylist ?? null)),
        },
        labels: {},
      },
      process_configuration: eggProcessConfiguration(
        {
          startup: pick(egg?.config_startup ?? null, egg?.parent_startup ?? null),
          stop: pick(egg?.config_stop ?? null, egg?.parent_stop ?? null),
          files: pick(egg?.config_files ?? null, egg?.parent_files ?? null),
        },
        configPlaceholders({ ...server, ip, port, environment: values }),
      ),
    });
  }
  return result;
}

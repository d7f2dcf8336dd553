import type { Db } from '@aerie/panel/db/database';
import { readBool } from '@aerie/panel/db/dialect';
import {
  configPlaceholders,
  eggProcessConfiguration,
} from '@aerie/panel/features/eggs/egg-process-configuration';
import { daemonMountsByServer } from '@aerie/panel/features/mounts/mount-lookups';
import type { NodeRecord } from '@aerie/panel/features/nodes/node-record';
import type { DaemonServerConfiguration } from '@aerie/shared/daemon/remote-wire';
import {
  allocationsOnNode,
  type ConfigServerRow,
  eggConfigurationsOf,
  variableValuesOf,
} from './daemon-configuration.repository';

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
  const [eggs, allocations, variables, mounts] = await Promise.all([
    eggConfigurationsOf(db, eggIds),
    allocationsOnNode(db, node.id, ids),
    variableValuesOf(db, ids),
    daemonMountsByServer(db, node.id, ids),
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
        mounts: mounts.get(server.id) ?? [],
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

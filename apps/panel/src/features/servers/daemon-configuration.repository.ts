import type { Db } from '@aerie/panel/db/database';

/** SQL of what a daemon reads about its node's servers (daemon-configuration.ts builds the documents). */

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

export type ConfigServerRow = Awaited<ReturnType<ReturnType<typeof nodeServers>['executeTakeFirstOrThrow']>>;

const qualifiedColumns = columns.map((column) => `servers.${column}` as const);

/**
 * The server of this uuid on this node, or null (also when it lives on another node: CVE-2026-26016). The node a
 * running transfer moves the server to gets it too, with the transfer's primary allocation, so the daemon receiving
 * it can build it before the server is moved; any other node still gets null.
 */
export async function findNodeServer(db: Db, nodeId: number, uuid: string): Promise<ConfigServerRow | null> {
  const row = await db
    .selectFrom('servers')
    .leftJoin('server_transfers as incoming', (join) =>
      join
        .onRef('incoming.server_id', '=', 'servers.id')
        .on('incoming.new_node', '=', nodeId)
        .on('incoming.successful', 'is', null),
    )
    .select(qualifiedColumns)
    .select(['servers.node_id', 'incoming.id as incoming_id', 'incoming.new_allocation'])
    .where('servers.uuid', '=', uuid)
    .where((eb) => eb.or([eb('servers.node_id', '=', nodeId), eb('incoming.id', 'is not', null)]))
    .executeTakeFirst();
  if (!row) return null;
  const { node_id, incoming_id, new_allocation, ...server } = row;
  const arriving = node_id !== nodeId && incoming_id !== null;
  return arriving ? { ...server, allocation_id: new_allocation ?? server.allocation_id } : server;
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

/** The eggs' process configuration, with that of the egg each copies its configuration from. */
export async function eggConfigurationsOf(db: Db, eggIds: readonly number[]) {
  return db
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
    .where('eggs.id', 'in', [...eggIds])
    .execute();
}

/** The allocations these servers hold on this node, in id order. */
export async function allocationsOnNode(db: Db, nodeId: number, serverIds: readonly number[]) {
  return db
    .selectFrom('allocations')
    .select(['id', 'ip', 'port', 'server_id'])
    .where('server_id', 'in', [...serverIds])
    .where('node_id', '=', nodeId)
    .orderBy('id')
    .execute();
}

/** Each server's variable values by env name, in the order the egg lists its variables. */
export async function variableValuesOf(db: Db, serverIds: readonly number[]) {
  return db
    .selectFrom('server_variables')
    .innerJoin('egg_variables', 'egg_variables.id', 'server_variables.variable_id')
    .select(['server_variables.server_id', 'egg_variables.env_variable', 'server_variables.variable_value'])
    .where('server_variables.server_id', 'in', [...serverIds])
    .orderBy('egg_variables.sort')
    .orderBy('egg_variables.id')
    .execute();
}

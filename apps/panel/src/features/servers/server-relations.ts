import type { Db } from '@aerie/panel/db/database';
import { readBool, readDate } from '@aerie/panel/db/dialect';
import { type NodeRecord, toNodeRecord } from '@aerie/panel/features/nodes/node-record';
import type { ServerRecord } from './server-record';
import { transferringServerIds } from './servers.repository';
import { parsePermissions } from './stored-permissions';

export interface AllocationRecord {
  id: number;
  ip: string;
  ipAlias: string | null;
  port: number;
  notes: string | null;
}

/** An egg variable with the server's own value (null when the server has none). */
export interface ServerVariableRecord {
  name: string;
  description: string;
  envVariable: string;
  defaultValue: string;
  serverValue: string | null;
  userViewable: boolean;
  userEditable: boolean;
  rules: string;
}

export interface EggRecord {
  uuid: string;
  name: string;
  /** The egg's features, or those of the egg it copies its configuration from. */
  features: string[] | null;
}

export interface SubuserRecord {
  uuid: string;
  username: string;
  email: string;
  useTotp: boolean;
  createdAt: Date;
  permissions: string[];
}

/** What the server presenter needs besides the server row, for a page of servers. */
export interface ServerRelations {
  nodes: Map<number, NodeRecord>;
  eggs: Map<number, EggRecord>;
  allocations: Map<number, AllocationRecord[]>;
  variables: Map<number, ServerVariableRecord[]>;
  transferring: Set<number>;
  /** Only when the subusers include was asked for. */
  subusers: Map<number, SubuserRecord[]> | null;
}

const group = <T>(rows: T[], key: (row: T) => number) => {
  const map = new Map<number, T[]>();
  for (const row of rows) {
    const list = map.get(key(row));
    if (list) list.push(row);
    else map.set(key(row), [row]);
  }
  return map;
};

const unique = (values: number[]) => [...new Set(values)];

const parseFeatures = (text: string | null): string[] | null => {
  if (text === null) return null;
  const value: unknown = JSON.parse(text);
  return Array.isArray(value) ? value.filter((entry): entry is string => typeof entry === 'string') : null;
};

/**
 * Loads the relations of a page of servers with one query per relation, whatever the page size: nodes, eggs,
 * allocations, egg variables, the servers' variable values, running transfers and (optionally) subusers.
 */
export async function loadServerRelations(
  db: Db,
  servers: readonly ServerRecord[],
  /** `transferring`: already read with the servers (the list's page query), so not asked again. */
  options: { subusers: boolean; transferring?: Set<number> },
): Promise<ServerRelations> {
  const ids = servers.map((server) => server.id);
  const eggIds = unique(servers.map((server) => server.eggId));
  const nodeIds = unique(servers.map((server) => server.nodeId));
  if (ids.length === 0) {
    return {
      nodes: new Map(),
      eggs: new Map(),
      allocations: new Map(),
      variables: new Map(),
      transferring: new Set(),
      subusers: options.subusers ? new Map() : null,
    };
  }
  const [nodes, eggs, allocations, eggVariables, values, transferring, subusers] = await Promise.all([
    db.selectFrom('nodes').selectAll().where('id', 'in', nodeIds).execute(),
    db
      .selectFrom('eggs')
      .leftJoin('eggs as parent', 'parent.id', 'eggs.config_from')
      .select(['eggs.id', 'eggs.uuid', 'eggs.name', 'eggs.features', 'parent.features as parent_features'])
      .where('eggs.id', 'in', eggIds)
      .execute(),
    db
      .selectFrom('allocations')
      .select(['id', 'ip', 'ip_alias', 'port', 'notes', 'server_id'])
      .where('server_id', 'in', ids)
      .orderBy('id')
      .execute(),
    db
      .selectFrom('egg_variables')
      .selectAll()
      .where('egg_id', 'in', eggIds)
      .orderBy('sort')
      .orderBy('id')
      .execute(),
    db
      .selectFrom('server_variables')
      .select(['server_id', 'variable_id', 'variable_value'])
      .where('server_id', 'in', ids)
      .execute(),
    options.transferring ? Promise.resolve(options.transferring) : transferringServerIds(db, ids),
    options.subusers
      ? db
          .selectFrom('subusers')
          .innerJoin('users', 'users.id', 'subusers.user_id')
          .select([
            'subusers.server_id',
            'subusers.permissions',
            'users.uuid',
            'users.username',
            'users.email',
            'users.use_totp',
            'users.created_at',
          ])
          .where('subusers.server_id', 'in', ids)
          .orderBy('subusers.id')
          .execute()
      : Promise.resolve(null),
  ]);

  const storedValue = new Map(
    values.map((row) => [`${row.server_id}:${row.variable_id}`, row.variable_value]),
  );
  const variablesByEgg = group(eggVariables, (row) => row.egg_id);
  const variables = new Map<number, ServerVariableRecord[]>();
  for (const server of servers) {
    variables.set(
      server.id,
      (variablesByEgg.get(server.eggId) ?? []).map((row) => ({
        name: row.name,
        description: row.description,
        envVariable: row.env_variable,
        defaultValue: row.default_value,
        serverValue: storedValue.get(`${server.id}:${row.id}`) ?? null,
        userViewable: readBool(row.user_viewable),
        userEditable: readBool(row.user_editable),
        rules: row.rules,
      })),
    );
  }

  return {
    nodes: new Map(nodes.map((row) => [row.id, toNodeRecord(row)])),
    eggs: new Map(
      eggs.map((row) => [
        row.id,
        { uuid: row.uuid, name: row.name, features: parseFeatures(row.features ?? row.parent_features) },
      ]),
    ),
    allocations: group(
      allocations.map((row) => ({
        id: row.id,
        ip: row.ip,
        ipAlias: row.ip_alias,
        port: row.port,
        notes: row.notes,
        serverId: row.server_id as number,
      })),
      (row) => row.serverId,
    ),
    variables,
    transferring,
    subusers: subusers
      ? group(
          subusers.map((row) => ({
            serverId: row.server_id,
            uuid: row.uuid,
            username: row.username,
            email: row.email,
            useTotp: readBool(row.use_totp),
            createdAt: readDate(row.created_at),
            permissions: parsePermissions(row.permissions),
          })),
          (row) => row.serverId,
        )
      : null,
  };
}

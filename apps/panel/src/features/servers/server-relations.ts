import type { Db } from '@aerie/panel/db/database';
import { readBool } from '@aerie/panel/db/dialect';
import { type NodeRecord, toNodeRecord } from '@aerie/panel/features/nodes/node-record';
import type { ServerRecord } from './server-record';
import {
  allocationRowsOf,
  eggSummariesOf,
  eggVariableRowsOf,
  nodeRowsOf,
} from './server-relations.repository';
import { serverVariableValues } from './server-variables.repository';
import { type ServerSubuser, subusersOfServers, transferringServerIds } from './servers.repository';

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

/** A subuser with what the client API shows of their account. */
export type SubuserRecord = ServerSubuser;

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
    nodeRowsOf(db, nodeIds),
    eggSummariesOf(db, eggIds),
    allocationRowsOf(db, ids),
    eggVariableRowsOf(db, eggIds),
    serverVariableValues(db, ids),
    options.transferring ? Promise.resolve(options.transferring) : transferringServerIds(db, ids),
    options.subusers ? subusersOfServers(db, ids) : Promise.resolve(null),
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
    subusers: subusers ? group(subusers, (subuser) => subuser.serverId) : null,
  };
}

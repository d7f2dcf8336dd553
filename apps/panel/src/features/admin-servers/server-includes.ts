import type { Db } from '@aerie/panel/db/database';
import { readDate, toWireDate } from '@aerie/panel/db/dialect';
import { eggTransformer, eggVariableTransformer } from '@aerie/panel/features/eggs/egg.transformer';
import type { EggVariable } from '@aerie/panel/features/eggs/eggs.repository';
import { findEggs, findNests, listEggVariables } from '@aerie/panel/features/eggs/eggs.repository';
import { nestTransformer } from '@aerie/panel/features/eggs/nest.transformer';
import { allocationTransformer } from '@aerie/panel/features/nodes/allocation.transformer';
import { toApplicationAllocation } from '@aerie/panel/features/nodes/allocations.repository';
import { nodeTransformer } from '@aerie/panel/features/nodes/node.transformer';
import { findNodes } from '@aerie/panel/features/nodes/nodes.repository';
import { parsePermissions } from '@aerie/panel/features/servers/stored-permissions';
import { userTransformer } from '@aerie/panel/features/users/user.transformer';
import { findUsers } from '@aerie/panel/features/users/users.repository';
import { groupBy, type Relation, type Transformer } from '@aerie/panel/http/application/transformer';
import type { AdminServer } from './admin-server';

/** A to-one relation found by id: one query for all parents. */
export function byId<T, R extends { id: number }>(
  find: (db: Db, ids: number[]) => Promise<R[]>,
  idOf: (parent: T) => number | null,
) {
  return async (db: Db, parents: T[]) => {
    const ids = [...new Set(parents.map(idOf).filter((id): id is number => id !== null))];
    const found = new Map((await find(db, ids)).map((row) => [row.id, row]));
    return new Map(parents.map((parent) => [parent, found.get(idOf(parent) ?? 0) ?? null]));
  };
}

interface Subuser {
  id: number;
  userId: number;
  serverId: number;
  permissions: string[];
  createdAt: Date;
  updatedAt: Date;
}

const subuserTransformer: Transformer<Subuser> = {
  object: 'subuser',
  attributes: (subuser) => ({
    id: subuser.id,
    user_id: subuser.userId,
    server_id: subuser.serverId,
    permissions: subuser.permissions,
    created_at: toWireDate(subuser.createdAt),
    updated_at: toWireDate(subuser.updatedAt),
  }),
};

type ServerVariable = EggVariable & { serverValue: string | null };

/** `server_variable`: the egg variable's row plus the server's value. */
const serverVariableTransformer: Transformer<ServerVariable> = {
  object: 'server_variable',
  attributes: (variable) => ({
    ...eggVariableTransformer.attributes(variable),
    server_value: variable.serverValue,
  }),
};

/** The server's includes besides its location and databases (reference §2.3). */
export const serverIncludes: Record<string, Relation<AdminServer>> = {
  user: { gate: 'users', transformer: () => userTransformer, load: byId(findUsers, (s) => s.row.owner_id) },
  subusers: {
    gate: 'users',
    transformer: () => subuserTransformer,
    async load(db, servers) {
      const rows = await db
        .selectFrom('subusers')
        .selectAll()
        .where(
          'server_id',
          'in',
          servers.map((server) => server.row.id),
        )
        .orderBy('id')
        .execute();
      const byServer = groupBy(
        rows.map(
          (row): Subuser => ({
            id: row.id,
            userId: row.user_id,
            serverId: row.server_id,
            permissions: parsePermissions(row.permissions),
            createdAt: readDate(row.created_at),
            updatedAt: readDate(row.updated_at),
          }),
        ),
        (subuser) => subuser.serverId,
      );
      return new Map(servers.map((server) => [server, byServer.get(server.row.id) ?? []]));
    },
  },
  allocations: {
    gate: 'allocations',
    transformer: () => allocationTransformer,
    async load(db, servers) {
      const rows = await db
        .selectFrom('allocations')
        .selectAll()
        .where(
          'server_id',
          'in',
          servers.map((server) => server.row.id),
        )
        .orderBy('id')
        .execute();
      const byServer = groupBy(rows.map(toApplicationAllocation), (allocation) => allocation.serverId);
      return new Map(servers.map((server) => [server, byServer.get(server.row.id) ?? []]));
    },
  },
  node: { gate: 'nodes', transformer: () => nodeTransformer, load: byId(findNodes, (s) => s.row.node_id) },
  nest: { gate: 'nests', transformer: () => nestTransformer, load: byId(findNests, (s) => s.row.nest_id) },
  egg: { gate: 'eggs', transformer: () => eggTransformer, load: byId(findEggs, (s) => s.row.egg_id) },
  variables: {
    gate: 'servers',
    transformer: () => serverVariableTransformer,
    async load(db, servers) {
      const variables = groupBy(
        await listEggVariables(db, [...new Set(servers.map((server) => server.row.egg_id))]),
        (variable) => variable.eggId,
      );
      const values = await db
        .selectFrom('server_variables')
        .select(['server_id', 'variable_id', 'variable_value'])
        .where(
          'server_id',
          'in',
          servers.map((server) => server.row.id),
        )
        .execute();
      const storedValues = new Map(
        values.map((row) => [`${row.server_id}:${row.variable_id}`, row.variable_value]),
      );
      return new Map(
        servers.map((server) => [
          server,
          (variables.get(server.row.egg_id) ?? []).map((variable) => ({
            ...variable,
            serverValue: storedValues.get(`${server.row.id}:${variable.id}`) ?? null,
          })),
        ]),
      );
    },
  },
};

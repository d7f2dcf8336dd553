import { toWireDate } from '@aerie/panel/db/dialect';
import { eggVariableTransformer } from '@aerie/panel/features/eggs/egg.transformer';
import { type EggVariable, listEggVariables } from '@aerie/panel/features/eggs/egg-lookups';
import { serverVariableValues } from '@aerie/panel/features/servers/server-variables.repository';
import { type ServerSubuser, subusersOfServers } from '@aerie/panel/features/servers/servers.repository';
import { groupBy, type Relation, type Transformer, toMany } from '@aerie/panel/http/application/transformer';
import type { AdminServer } from './admin-server';

// The server's own includes, rendered here; the others (user, node, egg...) are wired by the include registry
// (`application-includes.ts`) from the features that own them.

const subuserTransformer: Transformer<ServerSubuser> = {
  object: 'subuser',
  attributes: (subuser) => ({
    id: subuser.id,
    user_id: subuser.userId,
    server_id: subuser.serverId,
    permissions: subuser.permissions,
    created_at: toWireDate(subuser.subuserCreatedAt),
    updated_at: toWireDate(subuser.subuserUpdatedAt),
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

export const serverSubusers: Relation<AdminServer> = toMany(
  'users',
  subuserTransformer,
  subusersOfServers,
  (subuser) => subuser.serverId,
  (server) => server.row.id,
);

/** Each egg variable of the server's egg with the server's own value (null when it has none). */
export const serverVariables: Relation<AdminServer> = {
  gate: 'servers',
  renders: serverVariableTransformer,
  async load(db, servers) {
    const [variables, values] = await Promise.all([
      listEggVariables(db, [...new Set(servers.map((server) => server.row.egg_id))]),
      serverVariableValues(
        db,
        servers.map((server) => server.row.id),
      ),
    ]);
    const byEgg = groupBy(variables, (variable) => variable.eggId);
    const stored = new Map(values.map((row) => [`${row.server_id}:${row.variable_id}`, row.variable_value]));
    return new Map(
      servers.map((server) => [
        server,
        (byEgg.get(server.row.egg_id) ?? []).map((variable) => ({
          ...variable,
          serverValue: stored.get(`${server.row.id}:${variable.id}`) ?? null,
        })),
      ]),
    );
  },
};

import { toWireDate } from '@aerie/panel/db/dialect';
import type { Transformer } from '@aerie/panel/http/application/transformer';
import { type AdminServer, adminServerFlags } from './admin-server';
import { serverSubusers, serverVariables } from './server-includes';

/**
 * `server` of the Application API (reference §3.5), attributes in upstream's order. Its includes from other
 * features (user, node, allocations, nest, egg, location, databases) are wired by `application-includes.ts`.
 */
export const serverTransformer: Transformer<AdminServer> = {
  object: 'server',
  attributes: (server) => {
    const { row } = server;
    const flags = adminServerFlags(server);
    return {
      id: row.id,
      external_id: row.external_id,
      uuid: row.uuid,
      identifier: row.uuid_short,
      name: row.name,
      description: row.description,
      status: row.status,
      suspended: row.status === 'suspended',
      limits: {
        memory: row.memory,
        swap: row.swap,
        disk: row.disk,
        io: row.io,
        cpu: row.cpu,
        threads: row.threads,
        oom_disabled: flags.oomDisabled,
      },
      feature_limits: {
        databases: row.database_limit,
        allocations: row.allocation_limit,
        backups: row.backup_limit ?? 0,
      },
      user: row.owner_id,
      node: row.node_id,
      allocation: row.allocation_id,
      nest: row.nest_id,
      egg: row.egg_id,
      container: {
        startup_command: row.startup,
        image: row.image,
        installed: row.status === 'installing' || row.status === 'install_failed' ? 0 : 1,
        environment: server.environment,
      },
      updated_at: toWireDate(flags.updatedAt),
      created_at: toWireDate(flags.createdAt),
    };
  },
  includes: { subusers: serverSubusers, variables: serverVariables },
};

import { groupBy, type Relation, type Transformer } from '@aerie/panel/http/application/transformer';
import { type AdminServer, loadAdminServers } from './admin-server';

/**
 * The `servers` include of a parent (user, node, nest, egg): its servers, in one query. The other transformers
 * build it while their modules load, so this module imports nothing that leads back to them; the server
 * transformer registers itself here when its own module has loaded.
 */
let serverTransformer: Transformer<AdminServer> | null = null;

export function registerServerTransformer(transformer: Transformer<AdminServer>): void {
  serverTransformer = transformer;
}

export function serversOf<T>(
  column: 'owner_id' | 'node_id' | 'nest_id' | 'egg_id',
  idOf: (parent: T) => number,
): Relation<T> {
  return {
    gate: 'servers',
    transformer: () => {
      if (!serverTransformer) throw new Error('The server transformer has not been loaded.');
      return serverTransformer;
    },
    async load(db, parents) {
      const ids = [...new Set(parents.map(idOf))];
      const rows =
        ids.length === 0
          ? []
          : await db.selectFrom('servers').selectAll().where(column, 'in', ids).orderBy('id').execute();
      const servers = groupBy(await loadAdminServers(db, rows), (server) => server.row[column]);
      return new Map(parents.map((parent) => [parent, servers.get(idOf(parent)) ?? []]));
    },
  };
}

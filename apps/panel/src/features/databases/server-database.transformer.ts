import type { Db } from '@aerie/panel/db/database';
import { toWireDate } from '@aerie/panel/db/dialect';
import { groupBy, type Relation, type Transformer } from '@aerie/panel/http/application/transformer';
import { databaseHostTransformer } from './database-host.transformer';
import type { ServerDatabaseWithHost } from './server-database';
import { listServerDatabases } from './server-databases.repository';

/** Opens a database's sealed password; one per panel database (the app key that sealed it goes with it). */
export type PasswordOpener = (database: ServerDatabaseWithHost) => string;

const openers = new WeakMap<Db, PasswordOpener>();

/** The databases feature tells the transformers how to open the passwords stored in `db`. */
export function registerPasswordOpener(db: Db, opener: PasswordOpener): void {
  openers.set(db, opener);
}

const passwordTransformer: Transformer<{ password: string }> = {
  object: 'database_password',
  attributes: ({ password }) => ({ password }),
};

const includes: Record<string, Relation<ServerDatabaseWithHost>> = {
  /** Ungated, as upstream: whoever may read the databases reads their passwords. */
  password: {
    gate: null,
    renders: passwordTransformer,
    async load(db, databases) {
      const open = openers.get(db);
      if (!open) throw new Error('No password opener is registered for this database.');
      return new Map(databases.map((database) => [database, { password: open(database) }]));
    },
  },
  host: {
    gate: 'database_hosts',
    renders: databaseHostTransformer,
    load: async (_db, databases) => new Map(databases.map((database) => [database, database.host])),
  },
};

const attributes = (database: ServerDatabaseWithHost) => ({
  id: database.id,
  server: database.serverId,
  host: database.hostId,
  database: database.database,
  username: database.username,
  remote: database.remote,
  max_connections: database.maxConnections,
  created_at: toWireDate(database.createdAt),
  updated_at: toWireDate(database.updatedAt),
});

/**
 * `server_database` of the Application API (reference application §3.6): numeric ids, the host's id, the full name
 * as `database`, `remote`; includes `password` (ungated) and `host` (gated by `database_hosts`).
 */
export const serverDatabaseTransformer: Transformer<ServerDatabaseWithHost> = {
  object: 'server_database',
  attributes,
  includes,
};

/** The same inside a server's `databases` include, whose items upstream names `databases` (§2.3). */
const includedServerDatabaseTransformer: Transformer<ServerDatabaseWithHost> = {
  object: 'databases',
  attributes,
  includes,
};

/** A server's `databases` include (gated by `server_databases`), one query for all the servers. */
export function serverDatabasesRelation<T extends { row: { id: number } }>(): Relation<T> {
  return {
    gate: 'server_databases',
    renders: includedServerDatabaseTransformer,
    async load(db, servers) {
      const databases = groupBy(
        await listServerDatabases(
          db,
          servers.map((server) => server.row.id),
        ),
        (database) => database.serverId,
      );
      return new Map(servers.map((server) => [server, databases.get(server.row.id) ?? []]));
    },
  };
}

import type { Client } from 'pg';
import { HOST_TIMEOUT_MS, type HostCredentials } from './database-host-driver';
import {
  checkDatabaseName,
  checkPassword,
  checkRemote,
  checkUsername,
  quotePostgresIdentifier,
} from './identifiers';
import type { HostDatabase, NewHostDatabase, ServerDatabaseDriver } from './server-database-driver';

async function connect(host: HostCredentials, database = 'postgres'): Promise<Client> {
  const { Client } = (await import('pg')).default;
  const client = new Client({
    host: host.host,
    port: host.port,
    user: host.username,
    password: host.password,
    database,
    connectionTimeoutMillis: HOST_TIMEOUT_MS,
    query_timeout: HOST_TIMEOUT_MS,
  });
  try {
    await client.connect();
  } catch (error) {
    await client.end().catch(() => undefined);
    throw error;
  }
  return client;
}

async function withClient<T>(host: HostCredentials, database: string, work: (client: Client) => Promise<T>) {
  const client = await connect(host, database);
  try {
    return await work(client);
  } finally {
    await client.end().catch(() => undefined);
  }
}

const database = (name: string) => quotePostgresIdentifier(checkDatabaseName(name));
const role = (name: string) => quotePostgresIdentifier(checkUsername(name));

/** The statements, each name checked then quoted; `passwordLiteral` is already escaped by pg (`escapeLiteral`). */
export const postgresStatements = {
  createRole: (username: string, passwordLiteral: string, maxConnections: number | null) =>
    `CREATE ROLE ${role(username)} WITH LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION ` +
    `PASSWORD ${passwordLiteral}` +
    (maxConnections ? ` CONNECTION LIMIT ${Math.trunc(maxConnections)}` : ''),
  createDatabase: (name: string, username: string) =>
    `CREATE DATABASE ${database(name)} OWNER ${role(username)}`,
  /** By default every role may connect to a new database: only its owner may. */
  revokePublic: (name: string) => `REVOKE ALL ON DATABASE ${database(name)} FROM PUBLIC`,
  /** Run inside the new database: before PostgreSQL 15 `public` belongs to the bootstrap superuser. */
  grantSchema: (username: string) => `GRANT ALL ON SCHEMA public TO ${role(username)}`,
  alterPassword: (username: string, passwordLiteral: string) =>
    `ALTER ROLE ${role(username)} WITH PASSWORD ${passwordLiteral}`,
  dropDatabase: (name: string) => `DROP DATABASE IF EXISTS ${database(name)}`,
  dropRole: (username: string) => `DROP ROLE IF EXISTS ${role(username)}`,
};

const s = postgresStatements;

/** Ends the sessions on a database, or of a role, so it can be dropped (DROP … WITH (FORCE) needs 13+). */
async function endSessions(client: Client, where: { database: string } | { username: string }) {
  const [column, value] = 'database' in where ? ['datname', where.database] : ['usename', where.username];
  await client.query(
    `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE ${column} = $1 AND pid <> pg_backend_pid()`,
    [value],
  );
}

async function dropBoth(client: Client, target: Pick<HostDatabase, 'database' | 'username'>) {
  await endSessions(client, { database: target.database });
  await client.query(s.dropDatabase(target.database));
  await endSessions(client, { username: target.username });
  await client.query(s.dropRole(target.username));
}

/**
 * PostgreSQL hosts (pg). A role (LOGIN, PASSWORD, CONNECTION LIMIT when a limit is set) owns its database; nobody
 * else may connect to it (CONNECT revoked from PUBLIC) and the role has every right on its `public` schema.
 * PostgreSQL has no host-based users: `remote` is stored and shown, and who may connect from where is the host's
 * pg_hba.conf. Rotating is `ALTER ROLE … PASSWORD`; dropping ends the sessions on the database and of the role.
 * CREATE DATABASE cannot run in a transaction, so a failed create drops what it had made, as the MySQL driver does.
 */
export const postgresServerDatabases: ServerDatabaseDriver = {
  async create(host, target: NewHostDatabase) {
    checkDatabaseName(target.database);
    checkUsername(target.username);
    // Not part of any statement here, but held to the same rule as on MySQL: it is stored and shown.
    checkRemote(target.remote);
    const made = { role: false, database: false };
    try {
      await withClient(host, 'postgres', async (client) => {
        await client.query(
          s.createRole(
            target.username,
            client.escapeLiteral(checkPassword(target.password)),
            target.maxConnections,
          ),
        );
        made.role = true;
        await client.query(s.createDatabase(target.database, target.username));
        made.database = true;
        await client.query(s.revokePublic(target.database));
      });
      await withClient(host, target.database, (client) => client.query(s.grantSchema(target.username)));
    } catch (error) {
      if (made.role) {
        await withClient(host, 'postgres', async (client) => {
          if (made.database) {
            await endSessions(client, { database: target.database });
            await client.query(s.dropDatabase(target.database));
          }
          await client.query(s.dropRole(target.username));
        }).catch(() => undefined);
      }
      throw error;
    }
  },

  async rotatePassword(host, target, password) {
    checkUsername(target.username);
    await withClient(host, 'postgres', (client) =>
      client.query(s.alterPassword(target.username, client.escapeLiteral(checkPassword(password)))),
    );
  },

  async drop(host, target) {
    checkDatabaseName(target.database);
    checkUsername(target.username);
    await withClient(host, 'postgres', (client) => dropBoth(client, target));
  },
};

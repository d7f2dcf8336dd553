import { randomBytes } from 'node:crypto';
import type { AppContext } from '@aerie/panel/app-context';
import mysql from 'mysql2/promise';
import pg from 'pg';
import { insertHost } from './database-hosts.repository';
import type { HostCredentials } from './drivers/database-host-driver';

/**
 * For tests only: the real database servers of `AERIE_TEST_DATABASE_HOSTS`, e.g.
 * `mysql://aerie:aerie@127.0.0.1:3306,postgres://aerie:aerie@127.0.0.1:5432` (`.ci/run` sets it; read as the
 * database host tests read it). Without it the tests that need a host are skipped, except under CI=true, where
 * they fail. Names made here carry a random part: several test files (and dialect runs) share the hosts.
 */
export const testHostUrls = (process.env.AERIE_TEST_DATABASE_HOSTS ?? '')
  .split(',')
  .filter(Boolean)
  .map((text) => new URL(text));

export const skipWithoutHosts = testHostUrls.length === 0 && process.env.CI !== 'true';

export const driverOf = (url: URL): HostCredentials['driver'] =>
  url.protocol === 'postgres:' || url.protocol === 'postgresql:' ? 'postgres' : 'mysql';

export const credentialsOf = (url: URL): HostCredentials => ({
  driver: driverOf(url),
  host: url.hostname,
  port: Number(url.port),
  username: decodeURIComponent(url.username),
  password: decodeURIComponent(url.password),
});

/** A short random part for names (letters and digits). */
export const randomPart = (length = 8) => randomBytes(length).toString('hex').slice(0, length);

/** Saves a host as the admin area would (password sealed), linked to `nodeId` or not. */
export async function insertTestHost(
  ctx: AppContext,
  credentials: HostCredentials,
  options: { nodeId?: number | null; name?: string } = {},
): Promise<number> {
  return insertHost(
    ctx.db,
    {
      name: options.name ?? `${credentials.driver} ${randomPart()}`,
      driver: credentials.driver,
      host: credentials.host,
      port: credentials.port,
      username: credentials.username,
      sealedPassword: ctx.secretBox.seal(credentials.password),
      nodeId: options.nodeId ?? null,
    },
    new Date(),
  );
}

/** Connects to `database` as `username` and runs a query in it: how a game server would use its database. */
export async function connectAs(
  host: HostCredentials,
  login: { database: string; username: string; password: string },
): Promise<void> {
  if (host.driver === 'postgres') {
    const client = new pg.Client({
      host: host.host,
      port: host.port,
      user: login.username,
      password: login.password,
      database: login.database,
      connectionTimeoutMillis: 5000,
    });
    try {
      await client.connect();
      await client.query('CREATE TABLE IF NOT EXISTS probe (id integer)');
      await client.query('INSERT INTO probe VALUES (1)');
    } finally {
      await client.end().catch(() => undefined);
    }
    return;
  }
  const connection = await mysql.createConnection({
    host: host.host,
    port: host.port,
    user: login.username,
    password: login.password,
    database: login.database,
    connectTimeout: 5000,
  });
  try {
    await connection.query('CREATE TABLE IF NOT EXISTS probe (id integer)');
    await connection.query('INSERT INTO probe VALUES (1)');
  } finally {
    await connection.end().catch(() => undefined);
  }
}

/** Runs a query as the host's admin (bind parameters: `?` on MySQL, `$1` on PostgreSQL). */
export async function adminQuery(
  host: HostCredentials,
  sql: string,
  params: unknown[] = [],
): Promise<Record<string, unknown>[]> {
  if (host.driver === 'postgres') {
    const client = new pg.Client({
      host: host.host,
      port: host.port,
      user: host.username,
      password: host.password,
      database: 'postgres',
    });
    await client.connect();
    try {
      return (await client.query(sql, params)).rows;
    } finally {
      await client.end();
    }
  }
  const connection = await mysql.createConnection({
    host: host.host,
    port: host.port,
    user: host.username,
    password: host.password,
  });
  try {
    const [rows] = await connection.query(sql, params);
    return rows as Record<string, unknown>[];
  } finally {
    await connection.end();
  }
}

/** Whether the database and the user exist on the host (information_schema / mysql.user, pg_database / pg_roles). */
export async function hostHas(
  host: HostCredentials,
  target: { database: string; username: string },
): Promise<{ database: boolean; user: boolean }> {
  if (host.driver === 'postgres') {
    const databases = await adminQuery(host, 'SELECT 1 FROM pg_database WHERE datname = $1', [
      target.database,
    ]);
    const roles = await adminQuery(host, 'SELECT 1 FROM pg_roles WHERE rolname = $1', [target.username]);
    return { database: databases.length > 0, user: roles.length > 0 };
  }
  const databases = await adminQuery(
    host,
    'SELECT 1 FROM information_schema.schemata WHERE schema_name = ?',
    [target.database],
  );
  const users = await adminQuery(host, 'SELECT 1 FROM mysql.user WHERE user = ?', [target.username]);
  return { database: databases.length > 0, user: users.length > 0 };
}

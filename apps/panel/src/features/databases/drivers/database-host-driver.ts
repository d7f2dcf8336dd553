import type { DatabaseHostBody } from '@aerie/shared/databases/database-hosts-bodies';

/** How long a database host may take to accept a connection and answer, before the panel gives up. */
export const HOST_TIMEOUT_MS = 5000;

export interface HostCredentials {
  driver: NonNullable<DatabaseHostBody['driver']>;
  host: string;
  port: number;
  username: string;
  password: string;
}

/**
 * Opens a connection to the host with its admin account and runs `SELECT 1`, as upstream does before saving a
 * host. MySQL/MariaDB through mysql2, PostgreSQL through pg (database `postgres`).
 * @throws the driver's error when the host cannot be reached or refuses the account
 */
export async function checkHostConnection(host: HostCredentials): Promise<void> {
  if (host.driver === 'postgres') {
    const { Client } = (await import('pg')).default;
    const client = new Client({
      host: host.host,
      port: host.port,
      user: host.username,
      password: host.password,
      database: 'postgres',
      connectionTimeoutMillis: HOST_TIMEOUT_MS,
      query_timeout: HOST_TIMEOUT_MS,
    });
    try {
      await client.connect();
      await client.query('SELECT 1');
    } finally {
      await client.end().catch(() => undefined);
    }
    return;
  }
  const mysql = await import('mysql2/promise');
  const connection = await mysql.createConnection({
    host: host.host,
    port: host.port,
    user: host.username,
    password: host.password,
    connectTimeout: HOST_TIMEOUT_MS,
  });
  try {
    await connection.query({ sql: 'SELECT 1', timeout: HOST_TIMEOUT_MS });
  } finally {
    await connection.end().catch(() => undefined);
  }
}

import { randomBytes } from 'node:crypto';
import { createDatabase, type Db } from '@aerie/panel/db/database';
import mysql from 'mysql2/promise';
import pg from 'pg';

export interface TestDatabase {
  db: Db;
  /** The DATABASE_URL of this test's own database, or undefined for SQLite in the data dir. */
  url: string | undefined;
  drop(): Promise<void>;
}

/**
 * A fresh, empty database for one test file. SQLite in `dataDir` by default; when AERIE_TEST_DATABASE_URL names
 * a PostgreSQL or MySQL/MariaDB server, a uniquely named database is created there and dropped afterwards.
 */
export async function createTestDatabase(dataDir: string): Promise<TestDatabase> {
  const server = process.env.AERIE_TEST_DATABASE_URL;
  if (!server) {
    const db = createDatabase({ dataDir });
    return { db, url: undefined, drop: () => db.destroy() };
  }
  const name = `aerie_test_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  const url = new URL(server);
  url.pathname = `/${name}`;
  const admin = await adminConnection(server);
  await admin.run(`CREATE DATABASE ${admin.quote(name)}${admin.isMysql ? ' CHARACTER SET utf8mb4' : ''}`);
  await admin.close();
  const db = createDatabase({ dataDir, databaseUrl: url.toString() });
  return {
    db,
    url: url.toString(),
    drop: async () => {
      await db.destroy();
      const again = await adminConnection(server);
      await again.run(`DROP DATABASE IF EXISTS ${again.quote(name)}${again.isMysql ? '' : ' WITH (FORCE)'}`);
      await again.close();
    },
  };
}

async function adminConnection(server: string) {
  if (/^postgres(ql)?:/.test(server)) {
    const client = new pg.Client({ connectionString: server });
    await client.connect();
    return {
      isMysql: false,
      quote: (id: string) => `"${id}"`,
      run: async (statement: string) => void (await client.query(statement)),
      close: () => client.end(),
    };
  }
  const connection = await mysql.createConnection({ uri: server.replace(/^mariadb:/, 'mysql:') });
  return {
    isMysql: true,
    quote: (id: string) => `\`${id}\``,
    run: async (statement: string) => void (await connection.query(statement)),
    close: () => connection.end(),
  };
}

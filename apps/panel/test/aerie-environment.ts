import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestDatabase, type TestDatabase } from './test-database';
import { createWebDistFixture } from './web-dist-fixture';

/** What a real `aerie` process under test runs on: a folder with its data directory, database and web build. */
export interface AerieEnvironment {
  dir: string;
  database: TestDatabase;
  /** DATA_DIR, WEB_DIST, PORT=0, LOG_LEVEL=warn, DATABASE_URL when not SQLite, then `extra`. */
  env: Record<string, string>;
  /** Drops the database and removes the folder (which also tells any game holder left behind to end its game). */
  remove(): Promise<void>;
}

export async function createAerieEnvironment(
  prefix: string,
  extra: Record<string, string> = {},
): Promise<AerieEnvironment> {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  mkdirSync(join(dir, 'data'));
  const database = await createTestDatabase(join(dir, 'data'));
  return {
    dir,
    database,
    env: {
      DATA_DIR: join(dir, 'data'),
      WEB_DIST: createWebDistFixture(dir),
      PORT: '0',
      LOG_LEVEL: 'warn',
      ...(database.url ? { DATABASE_URL: database.url } : {}),
      ...extra,
    },
    async remove() {
      await database.drop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A TCP port free on 127.0.0.1 right now (for a daemon the test must reach at a known address). */
export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/** Whether a process exists (a zombie counts: it still holds its pid). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

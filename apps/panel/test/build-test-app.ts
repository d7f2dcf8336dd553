import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from '@aerie/panel/app';
import type { AppContext } from '@aerie/panel/app-context';
import { type Config, loadConfig } from '@aerie/panel/config/load-config';
import type { Db } from '@aerie/panel/db/database';
import { migrateToLatest } from '@aerie/panel/db/migrator';
import type { FastifyInstance } from 'fastify';
import { createTestDatabase } from './test-database';
import { createWebDistFixture } from './web-dist-fixture';

export interface TestApp {
  app: FastifyInstance;
  ctx: AppContext;
  db: Db;
  config: Config;
  dataDir: string;
  /** Moves the services' clock (sessions, checkpoint and reset expiry) forward. */
  advanceClock(ms: number): void;
  close(): Promise<void>;
}

/**
 * The real panel on a fresh, migrated database in its own temp DATA_DIR, with a web build fixture.
 * Call once per test file (beforeAll) and close() in afterAll.
 */
export async function buildTestApp(
  options: {
    env?: Record<string, string>;
    beforeReady?: (app: FastifyInstance) => void;
    /** Where the temp DATA_DIR (and so the SQLite file) is made; the system's temp directory by default. */
    dataDirParent?: string;
  } = {},
): Promise<TestApp> {
  const dataDir = mkdtempSync(join(options.dataDirParent ?? tmpdir(), 'aerie-panel-test-'));
  const database = await createTestDatabase(dataDir);
  await migrateToLatest(database.db);
  const config = loadConfig({
    DATA_DIR: dataDir,
    WEB_DIST: createWebDistFixture(dataDir),
    APP_URL: 'http://panel.test',
    LOG_LEVEL: 'silent',
    // Admission control is tested on purpose (http/admission.test.ts); elsewhere a loaded CI machine must not make
    // the panel shed a test's requests.
    PANEL_MAX_EVENT_LOOP_DELAY: '0',
    PANEL_MAX_IN_FLIGHT: '0',
    ...(database.url ? { DATABASE_URL: database.url } : {}),
    ...options.env,
  });
  let offsetMs = 0;
  const app = await buildApp({
    config,
    db: database.db,
    appKey: randomBytes(32),
    clock: () => new Date(Date.now() + offsetMs),
  });
  options.beforeReady?.(app);
  await app.ready();
  return {
    app,
    ctx: app.ctx,
    db: database.db,
    config,
    dataDir,
    advanceClock: (ms) => {
      offsetMs += ms;
    },
    close: async () => {
      await app.close();
      await database.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

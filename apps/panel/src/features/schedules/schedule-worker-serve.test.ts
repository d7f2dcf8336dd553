import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAppContext } from '@aerie/panel/app-context';
import { servePanel } from '@aerie/panel/cli/serve';
import { loadConfig } from '@aerie/panel/config/load-config';
import { readBool } from '@aerie/panel/db/dialect';
import { migrateToLatest } from '@aerie/panel/db/migrator';
import { startDaemonStandIn } from '@aerie/panel/test/daemon-stand-in';
import { createTestUser } from '@aerie/panel/test/factories';
import { addTestTasks, createTestSchedule } from '@aerie/panel/test/schedule-factories';
import { createTestNode, createTestServer, importDemoEgg } from '@aerie/panel/test/server-factories';
import { createTestDatabase } from '@aerie/panel/test/test-database';
import { createWebDistFixture } from '@aerie/panel/test/web-dist-fixture';
import { expect, it } from 'vitest';

/** What `aerie up` and `aerie panel` serve (cli/serve.ts) runs the schedule worker, and stops it on close. */
it('serves the panel with the schedule worker running, and stops the worker with the app', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'aerie-schedules-serve-'));
  const database = await createTestDatabase(dataDir);
  await migrateToLatest(database.db);
  const config = loadConfig({
    DATA_DIR: dataDir,
    WEB_DIST: createWebDistFixture(dataDir),
    PORT: '0',
    LOG_LEVEL: 'silent',
    ...(database.url ? { DATABASE_URL: database.url } : {}),
  });
  const appKey = randomBytes(32);
  const quiet = { info: () => {}, warn: () => {}, error: () => {} };
  const ctx = createAppContext({ config, db: database.db, appKey, log: quiet });
  const node = await createTestNode(ctx, { fqdn: '127.0.0.1' });
  const daemon = await startDaemonStandIn({ token: ctx.secretBox.open(node.daemon_token) });
  await ctx.db.updateTable('nodes').set({ daemon_listen: daemon.port }).where('id', '=', node.id).execute();
  const { user } = await createTestUser(ctx);
  const server = await createTestServer(ctx, { owner: user, node, eggId: (await importDemoEgg(ctx)).id });
  const scheduleId = await createTestSchedule(ctx, server);
  await addTestTasks(ctx, scheduleId, [{ payload: 'say served' }]);

  const { app } = await servePanel(config, { db: database.db, appKey });
  try {
    // The first tick comes as the panel starts listening.
    for (let i = 0; i < 100 && !daemon.calls.some((call) => call.url.endsWith('/commands')); i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(daemon.calls.filter((call) => call.url.endsWith('/commands')).map((call) => call.body)).toEqual([
      { commands: ['say served'] },
    ]);
  } finally {
    await app.close();
    await daemon.close();
  }
  expect(app.ctx.scheduleRunner.stopping).toBe(true);
  const row = await database.db
    .selectFrom('schedules')
    .select(['is_processing', 'last_run_at'])
    .where('id', '=', scheduleId)
    .executeTakeFirstOrThrow();
  expect(readBool(row.is_processing)).toBe(false);
  expect(row.last_run_at).not.toBeNull();
  await database.drop();
  rmSync(dataDir, { recursive: true, force: true });
});

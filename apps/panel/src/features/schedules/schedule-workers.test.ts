import { type AppContext, createAppContext } from '@aerie/panel/app-context';
import { DaemonClient } from '@aerie/panel/daemon-client/daemon-client';
import { createDatabase, type Db } from '@aerie/panel/db/database';
import { readBool } from '@aerie/panel/db/dialect';
import type { Log } from '@aerie/panel/logging/log';
import { buildTestApp, type TestApp } from '@aerie/panel/test/build-test-app';
import { addTestTasks, createTestSchedule } from '@aerie/panel/test/schedule-factories';
import { serverScenarioWithDaemon } from '@aerie/panel/test/server-scenario';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ScheduleRunner } from './schedule-runner';
import { ScheduleTicker } from './schedule-ticker';

/**
 * Two panels on one database (two app contexts, each with its own connection pool: on PostgreSQL and MySQL two
 * real concurrent clients) tick at the same moment over the same due schedules: each schedule runs exactly once.
 */

const SCHEDULES = 240;

let t: TestApp;
let s: Awaited<ReturnType<typeof serverScenarioWithDaemon>>;
let second: { ctx: AppContext; db: Db };
let now: Date;
const clock = () => now;
const quiet: Log = { info: () => {}, warn: () => {}, error: () => {} };
/** How many times each command reached the daemon. */
const received = new Map<string, number>();

function worker(ctx: Pick<AppContext, 'db' | 'power' | 'secretBox' | 'backups'>, claimBatch: number) {
  const runner = new ScheduleRunner(
    {
      db: ctx.db,
      clock,
      power: ctx.power,
      backups: ctx.backups,
      // The daemon stand-in shares this process's event loop with 480 runs: on a loaded machine its answer to the
      // node check can take longer than the 5 s default, and a node that does not answer rightly defers every run.
      daemon: new DaemonClient(ctx.secretBox, { timeoutMs: 60_000 }),
      log: quiet,
      timezone: 'UTC',
    },
    { sleep: async () => {} },
  );
  return { runner, ticker: new ScheduleTicker({ db: ctx.db, clock, runner, log: quiet }, { claimBatch }) };
}

beforeAll(async () => {
  t = await buildTestApp();
  s = await serverScenarioWithDaemon(t, [], (call) => {
    if (call.path.endsWith('/commands')) {
      const command = (call.body as { commands: string[] }).commands[0] as string;
      received.set(command, (received.get(command) ?? 0) + 1);
    }
    return undefined;
  });
  // The second panel: its own connections to the same database, its own services. On SQLite it shares the first
  // one's connection: two better-sqlite3 connections in one process would each wait for the other's lock while
  // holding the only thread (separate panel processes wait on each other as they should).
  const db = t.config.databaseUrl
    ? createDatabase({ databaseUrl: t.config.databaseUrl, dataDir: t.dataDir })
    : t.db;
  second = { db, ctx: createAppContext({ config: t.config, db, appKey: t.ctx.appKey, log: quiet, clock }) };
  now = new Date('2030-01-07T12:00:30Z');
  for (let i = 0; i < SCHEDULES; i++) {
    const id = await createTestSchedule(t.ctx, s.server, { nextRunAt: now });
    // Every fourth schedule has a second task.
    await addTestTasks(
      t.ctx,
      id,
      i % 4 === 0 ? [{ payload: `say ${id}` }, { payload: `say ${id} again` }] : [{ payload: `say ${id}` }],
    );
  }
}, 60_000);
afterAll(async () => {
  if (second.db !== t.db) await second.db.destroy();
  await t.close();
  await s.daemon.close();
});
beforeEach(() => received.clear());

describe('two panels on one database', () => {
  it.each([
    ['in batches of 16, interleaved', 16],
    ['in one batch each', 1000],
  ])(
    'run every due schedule exactly once, %s, minute after minute',
    async (_name, batch) => {
      const a = worker(t.ctx, batch);
      const b = worker(second.ctx, batch);
      for (let minute = 0; minute < 3; minute++) {
        received.clear();
        const results = await Promise.all([
          a.ticker.tick(),
          b.ticker.tick(),
          a.ticker.tick(),
          b.ticker.tick(),
        ]);
        await Promise.all([a.runner.idle(), b.runner.idle()]);
        const claimed = results.map((result) => result.claimed);
        expect(claimed.reduce((sum, count) => sum + count, 0)).toBe(SCHEDULES);
        if (batch < SCHEDULES) {
          // Both panels took part: the claims really raced.
          expect((claimed[0] ?? 0) + (claimed[2] ?? 0)).toBeGreaterThan(0);
          expect((claimed[1] ?? 0) + (claimed[3] ?? 0)).toBeGreaterThan(0);
        }
        expect(received.size).toBe(SCHEDULES + SCHEDULES / 4);
        expect([...received.values()].every((count) => count === 1)).toBe(true);
        const rows = await t.db
          .selectFrom('schedules')
          .select(['is_processing', 'claimed_by', 'next_run_at'])
          .execute();
        expect(rows.every((row) => !readBool(row.is_processing) && row.claimed_by === null)).toBe(true);
        // The next minute: every schedule is due again.
        now = new Date(now.getTime() + 60_000);
      }
      await Promise.all([a.ticker.stop(), b.ticker.stop()]);
    },
    60_000,
  );
});

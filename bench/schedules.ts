// `npm run bench:schedules -w @aerie/bench`: the schedule worker (apps/panel/src/features/schedules) on 10,000
// active schedules due in the same minute across 1,000 servers (SQLite unless DATABASE_URL is set), against a
// stand-in daemon in its own process: how long until every task reached the daemon, and how many statements the
// database got. Baseline: the same commands sent straight through the panel's power service, no database.
import { performance } from 'node:perf_hooks';
import { prepare } from '@aerie/panel/cli/prepare';
import { loadConfig } from '@aerie/panel/config/load-config';
import { SecretBox } from '@aerie/panel/crypto/secret-box';
import { DaemonClient } from '@aerie/panel/daemon-client/daemon-client';
import { readBool } from '@aerie/panel/db/dialect';
import { seedServers } from '@aerie/panel/dev/seed-servers';
import { ConcurrencyGate } from '@aerie/panel/features/schedules/batching';
import { defaultRunnerOptions, ScheduleRunner } from '@aerie/panel/features/schedules/schedule-runner';
import { ScheduleTicker } from '@aerie/panel/features/schedules/schedule-ticker';
import { PowerService } from '@aerie/panel/features/servers/power.service';
import { findNodeById } from '@aerie/panel/features/servers/servers.repository';
import { freePort } from './src/bench-setup';
import { startChildServer } from './src/child-server';
import { benchTempDirectory } from './src/files-cleanup';
import { printTable, ratio } from './src/measure';
import { QueryCounter } from './src/query-counter';
import { seedSchedules } from './src/schedules-seed';

const servers = Number(process.env.BENCH_SERVERS ?? 1000);
const schedules = Number(process.env.BENCH_SCHEDULES ?? 10_000);
const tasksPer = Number(process.env.BENCH_TASKS ?? 1);
const perServer = Math.ceil(schedules / servers);
const expected = servers * perServer * tasksPer;

interface DaemonStats {
  received: number;
  distinct: number;
  duplicates: number;
  first: number;
  last: number;
}

const temp = benchTempDirectory('aerie-bench-schedules-');
const config = loadConfig({
  DATA_DIR: temp.path,
  LOG_LEVEL: 'silent',
  ...(process.env.DATABASE_URL ? { DATABASE_URL: process.env.DATABASE_URL } : {}),
});
const { db, appKey } = await prepare(config, { migrate: true, print: () => {} });
const port = await freePort();
const daemon = await startChildServer(
  ['--import', 'tsx', 'bench/src/schedules-daemon.ts'],
  { PORT: String(port) },
  `http://127.0.0.1:${port}`,
  '/stats',
);
const stats = async (): Promise<DaemonStats> =>
  (await fetch(`${daemon.url}/stats`)).json() as Promise<DaemonStats>;
const reset = () => fetch(`${daemon.url}/reset`, { method: 'POST' });

try {
  const secretBox = new SecretBox(appKey);
  const seedStarted = performance.now();
  await seedServers(db, secretBox, { users: Math.max(1, Math.ceil(servers / 10)), servers });
  await db.updateTable('nodes').set({ fqdn: '127.0.0.1', daemon_listen: port }).execute();
  const serverRows = await db.selectFrom('servers').select(['id', 'uuid', 'node_id']).orderBy('id').execute();
  // Due at the start of this minute: all of them in the same minute.
  const due = new Date(Math.floor(Date.now() / 60_000) * 60_000);
  const ids = await seedSchedules(db, {
    serverIds: serverRows.map((row) => row.id),
    perServer,
    tasks: tasksPer,
    due,
  });
  console.log(
    `Seeded ${serverRows.length} servers and ${ids.length} schedules (${tasksPer} task each) in ${((performance.now() - seedStarted) / 1000).toFixed(1)} s`,
  );

  const daemonClient = new DaemonClient(secretBox);
  const power = new PowerService(daemonClient);
  const node = await findNodeById(db, serverRows[0]?.node_id as number);

  // Baseline: the same number of commands through the same power service and concurrency, no database at all.
  const baseline = async () => {
    await reset();
    const gate = new ConcurrencyGate(defaultRunnerOptions.concurrency);
    const started = Date.now();
    await Promise.all(
      Array.from({ length: expected }, (_, i) =>
        gate.run(() =>
          power.command(
            { server: serverRows[i % serverRows.length] as { uuid: string }, node },
            `say baseline ${i}`,
          ),
        ),
      ),
    );
    return Date.now() - started;
  };
  await baseline(); // warm-up: JIT and the connection pool
  const baselineMs = await baseline();

  const counter = new QueryCounter();
  const counted = db.withPlugin(counter);
  const log = {
    info: () => {},
    warn: (_context: object | string, message?: string) => console.warn(message ?? _context),
    error: (_context: object | string, message?: string) => console.error(message ?? _context),
  };
  const runner = new ScheduleRunner({
    db: counted,
    clock: () => new Date(),
    power,
    // Only command tasks here: a backup task would be a bench of its own (bench:backups).
    backups: {
      create: () => Promise.reject(new Error('bench:schedules seeds no backup tasks')),
    },
    daemon: daemonClient,
    log,
    timezone: 'UTC',
  });
  const ticker = new ScheduleTicker({ db: counted, clock: () => new Date(), runner, log });

  await reset();
  counter.reset();
  const t0 = Date.now();
  const tick = await ticker.tick();
  const claimedMs = Date.now() - t0;
  let daemonStats = await stats();
  while (daemonStats.received < expected && Date.now() - t0 < 300_000) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    daemonStats = await stats();
  }
  await runner.idle();
  const doneMs = Date.now() - t0;
  daemonStats = await stats();
  const statements = counter.total;
  const kinds = [...counter.byKind].map(([kind, count]) => `${kind} ${count}`).join(', ');
  await ticker.stop();

  const rows = await db
    .selectFrom('schedules')
    .select(['is_processing', 'last_run_at', 'next_run_at'])
    .execute();
  const idle = rows.filter((row) => !readBool(row.is_processing) && row.last_run_at !== null).length;
  const dispatchedMs = daemonStats.last - t0;

  console.log(
    `\n${ids.length} schedules due in one minute on ${serverRows.length} servers, ${expected} tasks (${process.env.DATABASE_URL ? 'DATABASE_URL' : 'SQLite'}); daemon stand-in in its own process; ${defaultRunnerOptions.concurrency} daemon calls in flight`,
  );
  printTable(
    ['', 'figure', 'baseline', 'ratio'],
    [
      ['claimed and started (one tick)', `${claimedMs} ms`, '', ''],
      ['every task at the daemon', `${dispatchedMs} ms`, `${baselineMs} ms`, ratio(dispatchedMs, baselineMs)],
      ['every run done, schedules idle', `${doneMs} ms`, '', ''],
      [
        'tasks received / distinct / twice',
        `${daemonStats.received} / ${daemonStats.distinct} / ${daemonStats.duplicates}`,
        '',
        '',
      ],
      ['statements to the database', String(statements), '', ''],
      ['statements per schedule', (statements / ids.length).toFixed(3), '', ''],
      ['statements per second', ((statements / doneMs) * 1000).toFixed(0), '', ''],
    ],
  );
  console.log(`statements by kind: ${kinds}; claimed by the tick: ${tick.claimed}`);
  if (daemonStats.distinct !== expected || daemonStats.duplicates > 0 || idle !== ids.length) {
    console.error(
      `FAILED: ${daemonStats.distinct} of ${expected} tasks arrived (${daemonStats.duplicates} twice), ${idle} of ${ids.length} schedules idle with a last run`,
    );
    process.exitCode = 1;
  }
} finally {
  await daemon.stop();
  await db.destroy();
  temp.remove();
}

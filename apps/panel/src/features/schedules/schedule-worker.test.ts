import { readBool, readDate, readNullableDate } from '@aerie/panel/db/dialect';
import type { Log } from '@aerie/panel/logging/log';
import { buildTestApp, type TestApp } from '@aerie/panel/test/build-test-app';
import { closedPort } from '@aerie/panel/test/closed-port';
import type { DaemonAnswer } from '@aerie/panel/test/daemon-stand-in';
import { addTestTasks, createTestSchedule, type TestTaskInput } from '@aerie/panel/test/schedule-factories';
import { serverScenarioWithDaemon, setServerState } from '@aerie/panel/test/server-scenario';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sleep as defaultSleep } from './batching';
import { ScheduleRunner, type ScheduleRunnerOptions } from './schedule-runner';
import { ScheduleTicker } from './schedule-ticker';

/**
 * The worker on a clock the test moves: due and not due, offsets, only_when_online, continue_on_failure, a run
 * whose schedule or server changes under it, a runner that dies mid-run and one that is stopped. Task offsets are
 * waited on the test's clock (the sleep moves it), so a 900 s offset takes no time.
 */

let t: TestApp;
let s: Awaited<ReturnType<typeof serverScenarioWithDaemon>>;
let now: Date;
const clock = () => now;
const at = (iso: string) => new Date(iso);
const START = '2030-01-07T12:00:30.000Z';
/** The server state the stand-in reports, or what it does to a details call. */
let state: string | 'unreachable';
let commandAnswer: DaemonAnswer;
/** Commands and power actions as the stand-in got them, with the test clock's time. */
let dispatched: { at: string; body: unknown }[];
const logged: { level: keyof Log; message: string }[] = [];
const log: Log = {
  info: (_context, message) => logged.push({ level: 'info', message: String(message) }),
  warn: (_context, message) => logged.push({ level: 'warn', message: String(message) }),
  error: (_context, message) => logged.push({ level: 'error', message: String(message) }),
};
const tickers: ScheduleTicker[] = [];

/** A sleep on the test clock: the offset passes at once. */
const virtualSleep = async (ms: number) => {
  now = new Date(now.getTime() + ms);
};

function worker(options: Partial<ScheduleRunnerOptions> = {}) {
  const runner = new ScheduleRunner(
    {
      db: t.db,
      clock,
      power: t.ctx.power,
      backups: t.ctx.backups,
      daemon: t.ctx.daemon,
      log,
      timezone: 'UTC',
    },
    { sleep: virtualSleep, heartbeatMs: 3_600_000, ...options },
  );
  const ticker = new ScheduleTicker({ db: t.db, clock, runner, log });
  tickers.push(ticker);
  return { runner, ticker };
}

async function tickAndWait(w: ReturnType<typeof worker>) {
  const result = await w.ticker.tick();
  await w.runner.idle();
  return result;
}

async function schedule(tasks: TestTaskInput[], input: Parameters<typeof createTestSchedule>[2] = {}) {
  const id = await createTestSchedule(t.ctx, s.server, { nextRunAt: now, ...input });
  await addTestTasks(t.ctx, id, tasks);
  return id;
}

const row = (id: number) =>
  t.db.selectFrom('schedules').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const sent = () => dispatched.map((entry) => entry.body);
const payloads = () =>
  dispatched.map((entry) => (entry.body as { commands: string[] }).commands[0] as string);
const iso = (value: Parameters<typeof readNullableDate>[0]) => readNullableDate(value)?.toISOString() ?? null;

async function expectIdle(id: number) {
  const current = await row(id);
  expect(readBool(current.is_processing)).toBe(false);
  expect(current.claimed_by).toBeNull();
  expect(current.lease_until).toBeNull();
  const queued = await t.db
    .selectFrom('tasks')
    .select('id')
    .where('schedule_id', '=', id)
    .where('is_queued', '=', true)
    .execute();
  expect(queued).toEqual([]);
}

beforeAll(async () => {
  t = await buildTestApp();
  s = await serverScenarioWithDaemon(t, [], (call) => {
    if (call.method === 'GET' && call.path === `/api/servers/${s.server.uuid}`) {
      return state === 'unreachable' ? 'hang-up' : { status: 200, body: { state } };
    }
    if (call.path.endsWith('/commands') || call.path.endsWith('/power')) {
      dispatched.push({ at: now.toISOString(), body: call.body });
      return call.path.endsWith('/commands') ? commandAnswer : { status: 202 };
    }
    return undefined;
  });
});
afterAll(async () => {
  await t.close();
  await s.daemon.close();
});
beforeEach(async () => {
  now = at(START);
  state = 'running';
  commandAnswer = { status: 204 };
  dispatched = [];
  logged.length = 0;
  s.daemon.calls.length = 0;
  await t.db.deleteFrom('schedules').execute();
  await setServerState(t, s.server, s.node, {});
});
afterEach(async () => {
  await Promise.all(tickers.splice(0).map((ticker) => ticker.stop()));
});

describe('due and not due', () => {
  it('runs active, idle schedules whose next run has come, once, and sets their last and next run', async () => {
    const due = await schedule([{ payload: 'say due' }], { nextRunAt: at('2030-01-07T12:00:00Z') });
    const later = await schedule([{ payload: 'say later' }], { nextRunAt: at('2030-01-07T12:01:00Z') });
    await schedule([{ payload: 'say inactive' }], { isActive: false });
    await schedule([{ payload: 'say busy' }], { isProcessing: true, leaseUntil: at('2030-01-07T13:00:00Z') });
    await schedule([{ payload: 'say never' }], { nextRunAt: null });
    const w = worker();

    expect(await tickAndWait(w)).toEqual({ resumed: 0, claimed: 1 });
    expect(sent()).toEqual([{ commands: ['say due'] }]);
    await expectIdle(due);
    expect(iso((await row(due)).last_run_at)).toBe(START);
    // Computed when the run started, from the cron (every minute).
    expect(iso((await row(due)).next_run_at)).toBe('2030-01-07T12:01:00.000Z');
    expect(await tickAndWait(w)).toEqual({ resumed: 0, claimed: 0 });

    now = at('2030-01-07T12:01:00.100Z');
    expect((await tickAndWait(w)).claimed).toBe(2);
    expect(payloads().sort()).toEqual(['say due', 'say due', 'say later']);
    expect(iso((await row(later)).next_run_at)).toBe('2030-01-07T12:02:00.000Z');
  });

  it('claims due schedules in batches until none is left', async () => {
    for (let i = 0; i < 7; i++) await schedule([{ payload: `say ${i}` }]);
    const runner = new ScheduleRunner(
      {
        db: t.db,
        clock,
        power: t.ctx.power,
        backups: t.ctx.backups,
        daemon: t.ctx.daemon,
        log,
        timezone: 'UTC',
      },
      { sleep: virtualSleep },
    );
    const ticker = new ScheduleTicker({ db: t.db, clock, runner, log }, { claimBatch: 3 });
    tickers.push(ticker);
    expect((await ticker.tick()).claimed).toBe(7);
    await runner.idle();
    expect(dispatched).toHaveLength(7);
  });

  it('skips a schedule without tasks, or of a suspended server, moving its next run but not its last', async () => {
    const empty = await schedule([]);
    const suspended = await schedule([{}]);
    await setServerState(t, s.server, s.node, { status: 'suspended' });
    await tickAndWait(worker());
    expect(sent()).toEqual([]);
    for (const id of [empty, suspended]) {
      await expectIdle(id);
      expect((await row(id)).last_run_at).toBeNull();
      expect(iso((await row(id)).next_run_at)).toBe('2030-01-07T12:01:00.000Z');
    }
  });
});

describe('tasks in sequence', () => {
  it('waits each task’s offset after the previous one, the first one’s too, and queues the waiting task', async () => {
    const id = await schedule([
      { payload: 'say one', timeOffset: 10 },
      { payload: 'say two', timeOffset: 30 },
      { action: 'power', payload: 'restart', timeOffset: 900 },
    ]);
    const queuedDuringWaits: string[][] = [];
    const w = worker({
      sleep: async (ms) => {
        await virtualSleep(ms);
        // Let the run's queue flags reach the database, then look.
        await new Promise((resolve) => setTimeout(resolve, 30));
        const queued = await t.db
          .selectFrom('tasks')
          .select('payload')
          .where('schedule_id', '=', id)
          .where('is_queued', '=', true)
          .execute();
        queuedDuringWaits.push(queued.map((task) => task.payload));
      },
    });
    await tickAndWait(w);
    expect(dispatched).toEqual([
      { at: '2030-01-07T12:00:40.000Z', body: { commands: ['say one'] } },
      { at: '2030-01-07T12:01:10.000Z', body: { commands: ['say two'] } },
      { at: '2030-01-07T12:16:10.000Z', body: { action: 'restart' } },
    ]);
    expect(queuedDuringWaits).toEqual([['say one'], ['say two'], ['restart']]);
    await expectIdle(id);
    expect(iso((await row(id)).last_run_at)).toBe('2030-01-07T12:16:10.000Z');
  });

  it('stops a run whose schedule is switched off, or whose server is suspended, before the next task', async () => {
    const off = await schedule([{ payload: 'say a' }, { payload: 'say b', timeOffset: 5 }]);
    let step = 0;
    const w = worker({
      sleep: async (ms) => {
        await virtualSleep(ms);
        step += 1;
        if (step === 1)
          await t.db.updateTable('schedules').set({ is_active: false }).where('id', '=', off).execute();
      },
    });
    await tickAndWait(w);
    expect(sent()).toEqual([{ commands: ['say a'] }]);
    await expectIdle(off);

    dispatched = [];
    const suspended = await schedule([{ payload: 'say c' }, { payload: 'say d', timeOffset: 5 }]);
    const w2 = worker({
      sleep: async (ms) => {
        await virtualSleep(ms);
        await setServerState(t, s.server, s.node, { status: 'suspended' });
      },
    });
    await tickAndWait(w2);
    expect(sent()).toEqual([{ commands: ['say c'] }]);
    await expectIdle(suspended);
  });
});

describe('only_when_online', () => {
  it.each([
    ['offline', false],
    ['stopping', false],
    ['unreachable', false],
    ['running', true],
    ['starting', true],
  ])('with the server %s, runs: %s (and the run counts as done either way)', async (serverState, runs) => {
    state = serverState;
    const id = await schedule([{ payload: 'say online' }], { onlyWhenOnline: true });
    await tickAndWait(worker());
    expect(sent()).toEqual(runs ? [{ commands: ['say online'] }] : []);
    await expectIdle(id);
    expect(iso((await row(id)).last_run_at)).toBe(START);
  });

  it('asks the daemon nothing for a schedule that runs regardless', async () => {
    state = 'offline';
    await schedule([{ payload: 'say anyway' }]);
    await tickAndWait(worker());
    expect(sent()).toEqual([{ commands: ['say anyway'] }]);
    expect(
      s.daemon.calls.some((call) => call.method === 'GET' && call.url === `/api/servers/${s.server.uuid}`),
    ).toBe(false);
  });
});

describe('continue_on_failure', () => {
  it('ends the run at a failing task that does not continue on failure, and the schedule is idle', async () => {
    commandAnswer = { status: 502, body: { error: 'Server is not running.' } };
    const id = await schedule([{ payload: 'say one' }, { action: 'power', payload: 'restart' }]);
    await tickAndWait(worker());
    expect(sent()).toEqual([{ commands: ['say one'] }]);
    await expectIdle(id);
    expect(iso((await row(id)).last_run_at)).toBe(START);
    expect(logged).toContainEqual({
      level: 'warn',
      message: `Schedule ${id} ("Test schedule") task 1 (command) failed: Server must be online in order to send commands.`,
    });
  });

  it('goes on past a failing task that continues on failure', async () => {
    commandAnswer = { status: 502, body: { error: 'Server is not running.' } };
    await schedule([
      { payload: 'say one', continueOnFailure: true },
      { action: 'power', payload: 'restart' },
    ]);
    await tickAndWait(worker());
    expect(sent()).toEqual([{ commands: ['say one'] }, { action: 'restart' }]);
  });

  it('starts a backup for a backup task, its payload the ignore list, and fails one at the backup limit', async () => {
    await t.db.deleteFrom('backups').execute();
    await t.db.updateTable('servers').set({ backup_limit: 1 }).where('id', '=', s.server.id).execute();
    const id = await schedule([
      { action: 'backup', payload: 'logs/\n\n*.log\n', continueOnFailure: true },
      { payload: 'say after the backup' },
      { action: 'backup', payload: '' },
      { payload: 'say never' },
    ]);
    await tickAndWait(worker());
    expect(sent()).toEqual([{ commands: ['say after the backup'] }]);
    const backups = await t.db
      .selectFrom('backups')
      .selectAll()
      .where('server_id', '=', s.server.id)
      .execute();
    expect(backups).toHaveLength(1);
    expect(JSON.parse(backups[0]?.ignored_files as string)).toEqual(['logs/', '*.log']);
    expect(backups[0]?.name).toMatch(/^Backup at \d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    const started = s.daemon.calls.filter((call) => call.path === `/api/servers/${s.server.uuid}/backup`);
    expect(started.map((call) => call.body)).toEqual([
      { adapter: 'wings', uuid: backups[0]?.uuid, ignore: 'logs/\n*.log' },
    ]);
    // The second backup task met the limit of 1 and ended the run.
    expect(logged.filter((line) => line.level === 'warn').map((line) => line.message)).toEqual([
      `Schedule ${id} ("Test schedule") task 3 (backup) failed: Cannot create a new backup, this server has reached its limit of 1 backups.`,
    ]);
    const entries = await t.db
      .selectFrom('activity_logs')
      .select(['event', 'actor_id', 'properties'])
      .where('server_id', '=', s.server.id)
      .where('event', 'like', 'server:backup.%')
      .execute();
    expect(entries).toEqual([
      {
        event: 'server:backup.start',
        actor_id: null,
        properties: JSON.stringify({ name: backups[0]?.name, locked: false }),
      },
    ]);
    await expectIdle(id);
    await t.db.deleteFrom('backups').execute();
    await t.db.updateTable('servers').set({ backup_limit: 0 }).where('id', '=', s.server.id).execute();
  });

  it('clears is_processing when a task throws something unexpected', async () => {
    const id = await schedule([{ action: 'power', payload: 'explode' }, { payload: 'say never' }]);
    const broken = worker({
      sleep: () => {
        throw new Error('the clock broke');
      },
    });
    await tickAndWait(broken);
    expect(sent()).toEqual([]);
    await expectIdle(id);

    const other = await schedule([{ payload: 'say one' }, { payload: 'say two', timeOffset: 1 }]);
    await tickAndWait(broken);
    expect(sent()).toEqual([{ commands: ['say one'] }]);
    await expectIdle(other);
    expect(
      logged.some((line) => line.level === 'error' && line.message.includes('stopped with an error')),
    ).toBe(true);
  });
});

describe('a runner that stops or dies mid-run', () => {
  it('takes over the run of a runner that died once its lease lapsed, going on from its next task', async () => {
    const id = await schedule([{ payload: 'say one' }, { payload: 'say two', timeOffset: 60 }]);
    let wake = () => {};
    // Runner A "dies" in its offset wait: it never wakes on its own and renews nothing.
    const a = worker({ sleep: () => new Promise<void>((resolve) => (wake = resolve)) });
    await a.ticker.tick();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(sent()).toEqual([{ commands: ['say one'] }]);
    expect(readBool((await row(id)).is_processing)).toBe(true);

    const b = worker();
    // Within the lease (2 min) nobody touches it, though its next run (12:01) has come.
    now = at('2030-01-07T12:02:00Z');
    expect(await tickAndWait(b)).toEqual({ resumed: 0, claimed: 0 });
    // Past the lease: B takes the run over and hands over the task after the one A handed over, not A's again.
    now = at('2030-01-07T12:03:00Z');
    expect(await tickAndWait(b)).toEqual({ resumed: 1, claimed: 0 });
    expect(sent()).toEqual([{ commands: ['say one'] }, { commands: ['say two'] }]);
    expect(logged).toContainEqual({
      level: 'warn',
      message:
        'Took over 1 schedule run(s) left in Processing by a panel that stopped; each goes on from its next task',
    });
    await expectIdle(id);
    expect(iso((await row(id)).last_run_at)).toBe('2030-01-07T12:04:00.000Z');
    // Its next run (12:01) has passed: the next tick runs it, a new run from its first task.
    expect(await tickAndWait(b)).toEqual({ resumed: 0, claimed: 1 });
    expect(payloads()).toEqual(['say one', 'say two', 'say one', 'say two']);

    // A wakes up late: the claim is not its own any more, so it sends nothing and changes nothing.
    const before = await row(id);
    wake();
    await a.runner.idle();
    expect(sent()).toHaveLength(4);
    expect(await row(id)).toEqual(before);
  });

  it('frees a lapsed claim that recorded no progress (taken by a panel before migration 0012) without running it', async () => {
    const id = await schedule([{ payload: 'say one' }], { cron: '0 0 * * *' });
    await t.db
      .updateTable('schedules')
      .set({
        is_processing: true,
        claimed_by: 'dead:c1',
        lease_until: at('2030-01-07T12:00:00Z'),
        next_run_at: at('2030-01-08T00:00:00Z'),
      })
      .where('id', '=', id)
      .execute();
    expect(await tickAndWait(worker())).toEqual({ resumed: 1, claimed: 0 });
    expect(sent()).toEqual([]);
    await expectIdle(id);
    expect((await row(id)).last_run_at).toBeNull();
  });

  it('keeps a live run’s claim past the lease by renewing it', async () => {
    const id = await schedule([{ payload: 'say one' }, { payload: 'say two', timeOffset: 600 }]);
    let wake = () => {};
    const a = worker({
      heartbeatMs: 10,
      sleep: async (ms) => {
        await virtualSleep(ms);
        await new Promise<void>((resolve) => (wake = resolve));
      },
    });
    await a.ticker.tick();
    // Ten minutes on (the offset), the heartbeat has moved the lease with the clock.
    await new Promise((resolve) => setTimeout(resolve, 80));
    expect(now.toISOString()).toBe('2030-01-07T12:10:30.000Z');
    expect(readDate((await row(id)).lease_until as Date).getTime()).toBeGreaterThan(now.getTime());
    expect(await tickAndWait(worker())).toEqual({ resumed: 0, claimed: 0 });
    wake();
    await a.runner.idle();
    expect(sent()).toEqual([{ commands: ['say one'] }, { commands: ['say two'] }]);
    await expectIdle(id);
  });

  it('ends its runs when stopped mid-run, leaving the schedules idle and the rest of their tasks unsent', async () => {
    const id = await schedule([{ payload: 'say one' }, { payload: 'say two', timeOffset: 900 }]);
    const { runner, ticker } = worker({ sleep: defaultSleep });
    await ticker.tick();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(readBool((await row(id)).is_processing)).toBe(true);
    await ticker.stop();
    expect(runner.stopping).toBe(true);
    expect(sent()).toEqual([{ commands: ['say one'] }]);
    await expectIdle(id);
  });

  it('does not claim a schedule that Run Now is running', async () => {
    const id = await schedule([{ payload: 'say manual' }, { payload: 'say later', timeOffset: 30 }]);
    let wake = () => {};
    const manual = worker({ sleep: () => new Promise<void>((resolve) => (wake = resolve)) });
    expect(await manual.runner.runNow(id, async () => undefined)).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 50));
    await t.db.updateTable('schedules').set({ next_run_at: now }).where('id', '=', id).execute();
    expect(await tickAndWait(worker())).toEqual({ resumed: 0, claimed: 0 });
    expect(await manual.runner.runNow(id, async () => undefined)).toBe(false);
    wake();
    await manual.runner.idle();
    expect(sent()).toEqual([{ commands: ['say manual'] }, { commands: ['say later'] }]);
  });
});

describe('a node that does not answer, a run that comes late', () => {
  /** The server's schedule runs in its activity log, oldest first. */
  const runEntries = async () =>
    (
      await t.db
        .selectFrom('activity_logs')
        .select(['event', 'properties'])
        .where('server_id', '=', s.server.id)
        .where('event', 'like', 'server:schedule.%')
        .orderBy('id')
        .execute()
    ).map((entry) => ({ event: entry.event, properties: JSON.parse(String(entry.properties)) }));
  let listen: number;
  const silence = async () => {
    await t.db
      .updateTable('nodes')
      .set({ daemon_listen: await closedPort() })
      .where('id', '=', s.node.id)
      .execute();
  };

  beforeEach(async () => {
    await t.db.deleteFrom('activity_logs').execute();
    listen = (
      await t.db
        .selectFrom('nodes')
        .select('daemon_listen')
        .where('id', '=', s.node.id)
        .executeTakeFirstOrThrow()
    ).daemon_listen;
  });
  afterEach(async () => {
    await t.db.updateTable('nodes').set({ daemon_listen: listen }).where('id', '=', s.node.id).execute();
  });

  it('puts a cron run back to its due time while the node does not answer, and runs it once it does', async () => {
    const id = await schedule([{ payload: 'say waited' }]);
    await silence();
    const w = worker();
    for (const second of ['12:00:30', '12:00:35', '12:00:40']) {
      now = at(`2030-01-07T${second}Z`);
      expect(await tickAndWait(w)).toEqual({ resumed: 0, claimed: 1 });
      expect(sent()).toEqual([]);
      await expectIdle(id);
      expect((await row(id)).last_run_at).toBeNull();
      expect(iso((await row(id)).next_run_at)).toBe(START);
    }
    expect(await runEntries()).toEqual([]);
    // Said once, not at every try.
    expect(logged.filter((line) => /did not answer/.test(line.message))).toHaveLength(1);

    await t.db.updateTable('nodes').set({ daemon_listen: listen }).where('id', '=', s.node.id).execute();
    now = at('2030-01-07T12:00:45Z');
    expect(await tickAndWait(w)).toEqual({ resumed: 0, claimed: 1 });
    expect(sent()).toEqual([{ commands: ['say waited'] }]);
    await expectIdle(id);
    expect(iso((await row(id)).last_run_at)).toBe('2030-01-07T12:00:45.000Z');
    expect(iso((await row(id)).next_run_at)).toBe('2030-01-07T12:01:00.000Z');
    expect(await tickAndWait(w)).toEqual({ resumed: 0, claimed: 0 });
    expect(sent()).toHaveLength(1);
    expect(await runEntries()).toEqual([
      { event: 'server:schedule.run', properties: { name: 'Test schedule', manual: false } },
    ]);
  });

  it('does not start a cron run more than 15 minutes late, and says so', async () => {
    const id = await schedule([{ payload: 'say too late' }]);
    now = at('2030-01-07T12:15:31Z');
    expect(await tickAndWait(worker())).toEqual({ resumed: 0, claimed: 1 });
    expect(sent()).toEqual([]);
    await expectIdle(id);
    expect((await row(id)).last_run_at).toBeNull();
    expect(iso((await row(id)).next_run_at)).toBe('2030-01-07T12:16:00.000Z');
    expect(await runEntries()).toEqual([
      {
        event: 'server:schedule.stop',
        properties: {
          name: 'Test schedule',
          manual: false,
          task: 1,
          reason: `it was due at ${START} and could not start within 15 minutes (the panel or the node was not available)`,
        },
      },
    ]);
  });

  it('fails Run Now at once on a node that does not answer, leaving the last run as it was', async () => {
    const id = await schedule([{ payload: 'say now' }], { nextRunAt: null });
    await silence();
    const w = worker();
    expect(await w.runner.runNow(id, async () => undefined)).toBe(true);
    await w.runner.idle();
    expect(sent()).toEqual([]);
    await expectIdle(id);
    expect((await row(id)).last_run_at).toBeNull();
    expect(await runEntries()).toEqual([
      {
        event: 'server:schedule.fail',
        properties: {
          name: 'Test schedule',
          manual: true,
          task: 1,
          action: 'command',
          message: 'Could not establish a connection to the machine running this server. Please try again.',
        },
      },
    ]);
  });
});

describe('the activity log', () => {
  /** The server's activity log as its owner reads it: newest first, event, actor and description. */
  async function log() {
    const response = await s.owner.get(`/api/client/servers/${s.server.uuid_short}/activity`);
    expect(response.statusCode).toBe(200);
    return (
      response.json() as {
        data: {
          attributes: { event: string; properties: Record<string, unknown>; relationships?: unknown };
        }[];
      }
    ).data.map(({ attributes }) => ({
      event: attributes.event,
      properties: attributes.properties,
      actor: 'relationships' in attributes,
    }));
  }

  beforeEach(async () => {
    await t.db.deleteFrom('activity_logs').execute();
  });

  it('records how each run ended, with no actor: ran, failed at a task, skipped while offline', async () => {
    await schedule([{ payload: 'say one' }], { name: 'Announce' });
    await tickAndWait(worker());
    commandAnswer = { status: 502, body: { error: 'Server is not running.' } };
    now = at('2030-01-07T12:01:00Z');
    await t.db.deleteFrom('schedules').execute();
    await schedule([{ payload: 'say two' }, { action: 'power', payload: 'restart' }], { name: 'Restart' });
    await tickAndWait(worker());
    state = 'offline';
    now = at('2030-01-07T12:02:00Z');
    await t.db.deleteFrom('schedules').execute();
    await schedule([{ payload: 'say three' }], { name: 'Online only', onlyWhenOnline: true });
    await tickAndWait(worker());

    expect(await log()).toEqual([
      { event: 'server:schedule.skip', properties: { name: 'Online only', manual: false }, actor: false },
      {
        event: 'server:schedule.fail',
        properties: {
          name: 'Restart',
          manual: false,
          task: 1,
          action: 'command',
          message: 'Server must be online in order to send commands.',
        },
        actor: false,
      },
      { event: 'server:schedule.run', properties: { name: 'Announce', manual: false }, actor: false },
    ]);
  });

  it('lists the tasks that failed and continued, and why a run stopped before a task', async () => {
    commandAnswer = { status: 502, body: { error: 'Server is not running.' } };
    await schedule(
      [
        { payload: 'say one', continueOnFailure: true },
        { action: 'power', payload: 'restart' },
      ],
      { name: 'Keeps going' },
    );
    await tickAndWait(worker());
    const [continued] = await log();
    expect(continued).toEqual({
      event: 'server:schedule.run',
      properties: {
        name: 'Keeps going',
        manual: false,
        count: 1,
        failures: [
          { task: 1, action: 'command', message: 'Server must be online in order to send commands.' },
        ],
      },
      actor: false,
    });

    await t.db.deleteFrom('schedules').execute();
    commandAnswer = { status: 204 };
    now = at('2030-01-07T12:05:00Z');
    const off = await schedule([{ payload: 'say a' }, { payload: 'say b', timeOffset: 5 }], {
      name: 'Switched off',
    });
    await tickAndWait(
      worker({
        sleep: async (ms) => {
          await virtualSleep(ms);
          await t.db.updateTable('schedules').set({ is_active: false }).where('id', '=', off).execute();
        },
      }),
    );
    const [stopped] = await log();
    expect(stopped).toEqual({
      event: 'server:schedule.stop',
      properties: { name: 'Switched off', manual: false, task: 2, reason: 'the schedule was switched off' },
      actor: false,
    });
  });

  it('records nothing for a run of a suspended server, which does not run at all', async () => {
    await schedule([{}]);
    await setServerState(t, s.server, s.node, { status: 'suspended' });
    await tickAndWait(worker());
    await setServerState(t, s.server, s.node, {});
    expect(await log()).toEqual([]);
  });
});

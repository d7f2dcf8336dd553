import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { type AppContext, createAppContext } from '@aerie/panel/app-context';
import { loadConfig } from '@aerie/panel/config/load-config';
import { readBool, readNullableDate } from '@aerie/panel/db/dialect';
import { migrateToLatest } from '@aerie/panel/db/migrator';
import { type AerieEnvironment, createAerieEnvironment, freePort } from '@aerie/panel/test/aerie-environment';
import { aerieBin } from '@aerie/panel/test/aerie-up-process';
import { type DaemonCall, startDaemonStandIn } from '@aerie/panel/test/daemon-stand-in';
import { createTestUser } from '@aerie/panel/test/factories';
import { addTestTasks, createTestSchedule, type TestTaskInput } from '@aerie/panel/test/schedule-factories';
import { createTestNode, createTestServer, importDemoEgg } from '@aerie/panel/test/server-factories';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Schedules across a panel crash: real `aerie panel` processes on one data directory and database (SQLite, or
 * AERIE_TEST_DATABASE_URL), killed with SIGKILL mid-run, mid-hand-over and just before a run was due, then started
 * again; the node is a daemon stand-in on a real socket that counts every command it is handed. Each task must
 * reach it exactly once, and a run counts as run only once its tasks were handed over.
 */

const quiet = { info: () => {}, warn: () => {}, error: () => {} };
const appKey = randomBytes(32);
let environment: AerieEnvironment;
let ctx: AppContext;
let eggId: number;
let owner: Awaited<ReturnType<typeof createTestUser>>['user'];
/** Each command's count, as the stand-ins received them. */
const received = new Map<string, number>();
const standIns: { close(): Promise<void> }[] = [];
const panels: Panel[] = [];

interface Panel {
  output(): string;
  /** kill -9, resolved once it exited. */
  kill(): Promise<void>;
  /** Ctrl-C, resolved once it exited. */
  stop(): Promise<void>;
}

async function startPanel(): Promise<Panel> {
  const child: ChildProcess = spawn(process.execPath, [aerieBin, 'panel'], {
    env: { ...process.env, ...environment.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk;
      if (output.includes('Aerie panel is running at')) resolve();
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`aerie panel exited with ${code}:\n${output}`)));
  });
  const signal = async (name: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(name);
    await exited;
  };
  const panel = { output: () => output, kill: () => signal('SIGKILL'), stop: () => signal('SIGINT') };
  panels.push(panel);
  return panel;
}

/** A node whose daemon listens on `port` (nothing does until a stand-in is started there), and a server on it. */
async function serverOnNode(port: number) {
  const node = await createTestNode(ctx, { fqdn: '127.0.0.1', daemonListen: port });
  const server = await createTestServer(ctx, { owner, node, eggId });
  return { node, server, token: ctx.secretBox.open(node.daemon_token) };
}

/** A stand-in daemon on `port` counting the commands it gets; `onCommand` may act before it answers. */
async function startNode(token: string, port: number, onCommand?: (command: string) => Promise<void>) {
  const daemon = await startDaemonStandIn({
    token,
    port,
    answer: async (call: DaemonCall) => {
      if (!call.path.endsWith('/commands')) return undefined;
      const command = (call.body as { commands: string[] }).commands[0] as string;
      received.set(command, (received.get(command) ?? 0) + 1);
      await onCommand?.(command);
      return undefined;
    },
  });
  standIns.push(daemon);
  return daemon;
}

async function scheduleWith(serverId: number, tasks: TestTaskInput[], nextRunAt: Date) {
  // Once a year: the run under test is the only one the test sees.
  const id = await createTestSchedule(ctx, { id: serverId }, { cron: '0 0 1 1 *', nextRunAt });
  const taskIds = await addTestTasks(ctx, id, tasks);
  return { id, taskIds };
}

const row = (id: number) =>
  ctx.db.selectFrom('schedules').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

/** The schedule's runs as its server's activity log tells them. */
async function runEntries(serverId: number) {
  const rows = await ctx.db
    .selectFrom('activity_logs')
    .select(['event', 'properties'])
    .where('server_id', '=', serverId)
    .where('event', 'like', 'server:schedule.%')
    .orderBy('id')
    .execute();
  return rows.map((entry) => ({
    event: entry.event,
    properties: JSON.parse(String(entry.properties)) as Record<string, unknown>,
  }));
}

/** Polls `check` until it holds, for up to 30 s: well inside the 2 minutes a claim's lease lasts. */
async function waitFor(what: string, check: () => boolean | Promise<boolean>, panel?: Panel) {
  const deadline = Date.now() + 30_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}\n${panel?.output() ?? ''}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

beforeAll(async () => {
  environment = await createAerieEnvironment('aerie-schedule-crash-', {
    APP_KEY: `base64:${appKey.toString('base64')}`,
  });
  await migrateToLatest(environment.database.db);
  ctx = createAppContext({
    config: loadConfig(environment.env),
    db: environment.database.db,
    appKey,
    log: quiet,
  });
  eggId = (await importDemoEgg(ctx)).id;
  owner = (await createTestUser(ctx)).user;
}, 60_000);

afterAll(async () => {
  await Promise.all(panels.map((panel) => panel.kill()));
  await Promise.all(standIns.map((daemon) => daemon.close()));
  await environment?.remove();
});

describe('a panel killed with SIGKILL', () => {
  it('mid-run: the panel started again hands over the remaining tasks once each, at once', async () => {
    const port = await freePort();
    const { server, token } = await serverOnNode(port);
    await startNode(token, port);
    // The second task's offset is the pause: the panel is killed while it waits, task 1 handed over.
    const { id, taskIds } = await scheduleWith(
      server.id,
      [
        { payload: 'say one' },
        { payload: 'say two', timeOffset: 3600 },
        { payload: 'say three', continueOnFailure: true },
      ],
      new Date(Date.now() - 1000),
    );
    const first = await startPanel();
    await waitFor(
      'task 1 handed over',
      async () => {
        const current = await row(id);
        return (
          received.get('say one') === 1 &&
          current.run_task_id === taskIds[0] &&
          readBool(current.run_task_sent)
        );
      },
      first,
    );
    await first.kill();
    expect(readBool((await row(id)).is_processing)).toBe(true);
    // While the panel is down, someone shortens the wait (else the test would wait the hour from the restart).
    await ctx.db
      .updateTable('tasks')
      .set({ time_offset: 1 })
      .where('id', '=', taskIds[1] as number)
      .execute();

    const second = await startPanel();
    await waitFor('the run to end', async () => !readBool((await row(id)).is_processing), second);
    expect(Object.fromEntries(received)).toEqual({ 'say one': 1, 'say two': 1, 'say three': 1 });
    const done = await row(id);
    expect(done.claimed_by).toBeNull();
    expect(done.last_run_at).not.toBeNull();
    expect(await runEntries(server.id)).toEqual([
      { event: 'server:schedule.run', properties: { name: 'Test schedule', manual: false, resumed: true } },
    ]);
    await second.stop();
    expect(Object.fromEntries(received)).toEqual({ 'say one': 1, 'say two': 1, 'say three': 1 });
  }, 90_000);

  it('mid-hand-over: the task that may have reached the server is not sent again; the run goes on or ends failed', async () => {
    received.clear();
    const port = await freePort();
    const { server, token } = await serverOnNode(port);
    let current: Panel | null = null;
    let killed: Promise<void> = Promise.resolve();
    // The daemon gets the task and the panel dies before it hears the answer.
    await startNode(token, port, async (command) => {
      if (!command.startsWith('say five')) return;
      killed = current?.kill() ?? killed;
      await killed;
    });
    const { id } = await scheduleWith(
      server.id,
      [
        { payload: 'say four' },
        { payload: 'say five', continueOnFailure: true },
        { payload: 'say six' },
        { payload: 'say five again' },
        { payload: 'say seven' },
      ],
      new Date(Date.now() - 1000),
    );
    current = await startPanel();
    await waitFor('task 2 to reach the daemon', () => received.get('say five') === 1, current);
    await killed;
    current = await startPanel();
    // Task 4 is also "say five…": the daemon kills the panel again as it gets it, this time at a task that does
    // not continue on failure.
    await waitFor('task 4 to reach the daemon', () => received.get('say five again') === 1, current);
    await killed;
    current = await startPanel();
    await waitFor('the run to end', async () => !readBool((await row(id)).is_processing), current);
    expect(Object.fromEntries(received)).toEqual({
      'say four': 1,
      'say five': 1,
      'say six': 1,
      'say five again': 1,
    });
    expect(await runEntries(server.id)).toEqual([
      {
        event: 'server:schedule.fail',
        properties: {
          name: 'Test schedule',
          manual: false,
          resumed: true,
          task: 4,
          action: 'command',
          message:
            'The panel stopped while handing this task over; it was not sent again, as it may have reached the server.',
        },
      },
    ]);
    expect((await row(id)).last_run_at).not.toBeNull();
    await current.stop();
  }, 120_000);

  it('just before a run was due: started while the node does not answer, the run waits for it, then runs once', async () => {
    received.clear();
    const port = await freePort();
    const { server, token } = await serverOnNode(port);
    const { id } = await scheduleWith(server.id, [{ payload: 'say late' }], new Date(Date.now() + 3_600_000));
    const first = await startPanel();
    await first.kill();
    // The run came due while the panel was down.
    const dueAt = new Date(Date.now() - 1000);
    await ctx.db.updateTable('schedules').set({ next_run_at: dueAt }).where('id', '=', id).execute();

    const second = await startPanel();
    await waitFor('the node to be found silent', () => /did not answer/.test(second.output()), second);
    // Tried and put back: not run, still due at its time, nothing in the activity log.
    let waiting = await row(id);
    await waitFor(
      'the run to go back',
      async () => {
        waiting = await row(id);
        return !readBool(waiting.is_processing);
      },
      second,
    );
    expect(waiting.last_run_at).toBeNull();
    expect(readNullableDate(waiting.next_run_at)?.toISOString()).toBe(dueAt.toISOString());
    expect(await runEntries(server.id)).toEqual([]);

    await startNode(token, port);
    await waitFor('the run', async () => (await row(id)).last_run_at !== null, second);
    await waitFor('the run to end', async () => !readBool((await row(id)).is_processing), second);
    expect(Object.fromEntries(received)).toEqual({ 'say late': 1 });
    expect(await runEntries(server.id)).toEqual([
      { event: 'server:schedule.run', properties: { name: 'Test schedule', manual: false } },
    ]);
    await second.stop();
    expect(Object.fromEntries(received)).toEqual({ 'say late': 1 });
  }, 90_000);
});

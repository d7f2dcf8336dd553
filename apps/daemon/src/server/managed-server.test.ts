import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startTestDaemon, type TestDaemon } from '@aerie/daemon/testing/daemon-harness';
import {
  demoConfiguration,
  type PanelStandIn,
  startPanelStandIn,
} from '@aerie/daemon/testing/panel-stand-in';
import { isAlive, nodeStartup, waitForEvent } from '@aerie/daemon/testing/server-fixtures';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServerState, ServerStats } from './console-server';
import { DAEMON_MESSAGE_PREFIX } from './daemon-message';

const FLOOD = '6a7b8c9d-0e1f-4a2b-bc3d-4e5f6a7b8c9d';
const FULL = '7b8c9d0e-1f2a-4b3c-8d4e-5f6a7b8c9d0e';
const GROWING = '8c9d0e1f-2a3b-4c4d-9e5f-6a7b8c9d0e1f';
const LONG_LINE = '9d0e1f2a-3b4c-4d5e-af6a-7b8c9d0e1f2a';
const MOUNTED = 'ad0e1f2a-3b4c-4d5e-af6a-7b8c9d0e1f2b';
let panel: PanelStandIn;
let daemon: TestDaemon;
let shared: string;

/** A one-file game in the server's directory: `stop` on stdin ends it. */
const script = (body: string) =>
  `${body}\nrequire('node:readline').createInterface({ input: process.stdin }).on('line', (l) => { if (l === 'stop') process.exit(0); });`;

beforeAll(async () => {
  panel = await startPanelStandIn();
  const game = (uuid: string, extra: Parameters<typeof demoConfiguration>[1] = {}) =>
    panel.servers.set(
      uuid,
      demoConfiguration(uuid, { invocation: nodeStartup('game.cjs'), done: ['ready'], ...extra }),
    );
  game(FLOOD);
  game(FULL, { diskMb: 1 });
  game(GROWING, { diskMb: 1 });
  game(LONG_LINE);
  game(MOUNTED);
  shared = await mkdtemp(path.join(tmpdir(), 'aerie-shared-'));
  await mkdir(path.join(shared, 'allowed', 'maps'), { recursive: true });
  await mkdir(path.join(shared, 'allowed-not'), { recursive: true });
  const mounted = panel.servers.get(MOUNTED);
  if (mounted)
    mounted.settings.mounts = [
      { source: path.join(shared, 'allowed', 'maps'), target: '/mnt/maps', read_only: true },
      { source: path.join(shared, 'allowed-not'), target: '/mnt/other', read_only: true },
    ];
  daemon = await startTestDaemon({
    panel,
    serverOptions: { diskCheckIntervalMs: 300 },
    mounts: { allowed: [path.join(shared, 'allowed')], backupDirectory: path.join(shared, 'backups') },
  });
  const write = (uuid: string, source: string) =>
    writeFile(path.join(daemon.dataDirectory, 'volumes', uuid, 'game.cjs'), source);
  await write(
    FLOOD,
    script(
      'process.stdout.write(Array.from({ length: 50000 }, (_, i) => "line " + i).join("\\n") + "\\nready\\n");',
    ),
  );
  await write(FULL, script('console.log("ready");'));
  await writeFile(
    path.join(daemon.dataDirectory, 'volumes', FULL, 'world.dat'),
    Buffer.alloc(2 * 1024 * 1024),
  );
  await write(
    GROWING,
    script(
      'console.log("ready"); setTimeout(() => require("node:fs").writeFileSync("big.dat", Buffer.alloc(2 * 1024 * 1024)), 200);',
    ),
  );
  await write(LONG_LINE, script('console.log("a".repeat(100000)); console.log("ready");'));
  await write(MOUNTED, script('console.log("ready");'));
});
afterAll(async () => {
  await daemon.close();
  await panel.close();
  await rm(shared, { recursive: true, force: true });
});

const serverOf = (uuid: string) => {
  const server = daemon.manager.get(uuid);
  if (!server) throw new Error(`${uuid} missing`);
  return server;
};
const becomes = (uuid: string, state: ServerState, timeoutMs = 10_000) =>
  waitForEvent(serverOf(uuid), 'status', (s: ServerState) => s === state, timeoutMs);
const NOTICE = `${DAEMON_MESSAGE_PREFIX}Server is outputting console data too quickly -- throttling...`;

describe('ManagedServer', () => {
  it('throttles a flood: drops lines with one notice per episode, and still sees the done line', {
    timeout: 30_000,
  }, async () => {
    const server = serverOf(FLOOD);
    const sequence: (number | 'notice')[] = [];
    server.on('console output', (line) => {
      const index = /^line (\d+)$/.exec(line)?.[1];
      if (index !== undefined) sequence.push(Number(index));
    });
    server.on('daemon message', (line) => {
      if (line === NOTICE) sequence.push('notice');
    });
    const running = becomes(FLOOD, 'running', 20_000);
    await server.power('start');
    await running;

    const delivered = sequence.filter((entry) => entry !== 'notice');
    const notices = sequence.filter((entry) => entry === 'notice').length;
    expect(delivered.length).toBeGreaterThanOrEqual(2000);
    expect(delivered.length).toBeLessThan(50_000);
    expect(notices).toBeGreaterThanOrEqual(1);
    // Each gap in the delivered lines is one episode, and each episode has exactly one notice, where it began.
    let gaps = 0;
    for (let i = 1; i < sequence.length; i++) {
      const entry = sequence[i];
      if (entry === 'notice') {
        expect(typeof sequence[i - 1]).toBe('number');
        expect(typeof sequence[i + 1] === 'number' || i === sequence.length - 1).toBe(true);
        continue;
      }
      const previous = sequence[i - 1] === 'notice' ? sequence[i - 2] : sequence[i - 1];
      if (typeof previous === 'number' && entry !== previous + 1) {
        gaps += 1;
        expect(sequence[i - 1]).toBe('notice');
      }
    }
    // The last episode may run to the end of the flood without a line after it.
    expect(notices - gaps).toBeLessThanOrEqual(1);
    expect(notices - gaps).toBeGreaterThanOrEqual(0);
    // The history still has the latest lines, throttled or not.
    expect(server.recentLogs().at(-1)).toBe('ready');
    expect(server.recentLogs()).toHaveLength(150);
  });

  it('refuses to start a server over its disk limit', { timeout: 15_000 }, async () => {
    const server = serverOf(FULL);
    const messages: string[] = [];
    server.on('daemon message', (line) => messages.push(line));
    const failed = waitForEvent(server, 'error');
    expect(
      (await daemon.request('POST', `/api/servers/${FULL}/power`, { body: { action: 'start' } })).status,
    ).toBe(202);
    expect(await failed).toEqual(['Not enough disk space is available to start this server.']);
    expect(messages).toEqual([
      `${DAEMON_MESSAGE_PREFIX}Checking server disk space usage, this could take a few seconds...`,
    ]);
    expect(server.state).toBe('offline');
    // The world file and the game's script.
    expect(server.stats().disk_bytes).toBeGreaterThan(2 * 1024 * 1024);
    expect(server.stats().disk_bytes).toBeLessThan(2 * 1024 * 1024 + 1000);
  });

  it('says on the console which of its mounts the node does not allow, and starts with the others', {
    timeout: 15_000,
  }, async () => {
    const server = serverOf(MOUNTED);
    const messages: string[] = [];
    server.on('daemon message', (line) => messages.push(line));
    const running = becomes(MOUNTED, 'running');
    await server.power('start');
    await running;
    // `allowed-not` starts with the allowed path's text: a plain string prefix (Wings) would let it through.
    expect(messages).toEqual([
      `${DAEMON_MESSAGE_PREFIX}Mount /mnt/other was not attached: its source is not within the allowed mounts of this node.`,
    ]);
    const offline = becomes(MOUNTED, 'offline');
    await server.power('stop');
    await offline;
  });

  it('stops a running server once it exceeds its disk limit, saying so once', {
    timeout: 20_000,
  }, async () => {
    const server = serverOf(GROWING);
    const messages: string[] = [];
    server.on('daemon message', (line) => messages.push(line));
    const offline = becomes(GROWING, 'offline', 15_000);
    await server.power('start');
    await offline;
    expect(
      messages.filter(
        (line) =>
          line ===
          `${DAEMON_MESSAGE_PREFIX}Server is exceeding the assigned disk space limit, stopping process now.`,
      ),
    ).toHaveLength(1);
    // Not a crash: it was stopped.
    expect(messages.some((line) => line.includes('crashed'))).toBe(false);
  });

  it('sends stats every second while running and one zeroed sample when it goes offline', {
    timeout: 20_000,
  }, async () => {
    const server = serverOf(LONG_LINE);
    const stats: ServerStats[] = [];
    server.on('stats', (sample) => stats.push(sample));
    const running = becomes(LONG_LINE, 'running');
    await server.power('start');
    await running;
    // Console lines are cut at 64 KiB.
    expect(server.recentLogs().map((line) => line.length)).toEqual([65536, 5]);
    await new Promise((resolve) => setTimeout(resolve, 2600));
    const live = stats.filter((sample) => sample.state === 'running');
    expect(live.length).toBeGreaterThanOrEqual(2);
    expect(live.length).toBeLessThanOrEqual(4);
    expect(live.at(-1)?.memory_bytes).toBeGreaterThan(0);
    expect(live.at(-1)?.uptime).toBeGreaterThan(1000);
    const offline = waitForEvent(server, 'stats', (sample: ServerStats) => sample.state === 'offline');
    await server.power('stop');
    expect((await offline)[0]).toMatchObject({
      memory_bytes: 0,
      cpu_absolute: 0,
      uptime: 0,
      state: 'offline',
    });
  });
});

describe('ServerManager persistence', () => {
  it('starts again, on the next boot, a server that was running when the daemon stopped', {
    timeout: 30_000,
  }, async () => {
    const own = await startPanelStandIn();
    const uuid = 'ab0e1f2a-3b4c-4d5e-8f6a-7b8c9d0e1f2a';
    own.servers.set(uuid, demoConfiguration(uuid, { invocation: nodeStartup('game.cjs'), done: ['ready'] }));
    const first = await startTestDaemon({ panel: own });
    try {
      await writeFile(
        path.join(first.dataDirectory, 'volumes', uuid, 'game.cjs'),
        script('console.log("pid " + process.pid); console.log("ready");'),
      );
      const server = first.manager.get(uuid);
      if (!server) throw new Error('missing');
      const running = waitForEvent(server, 'status', (s: ServerState) => s === 'running');
      await server.power('start');
      await running;
      const pid = Number(server.recentLogs()[0]?.split(' ')[1]);
      await first.stop();
      // The game could not outlive the daemon, yet states.json still says it ran.
      await expect.poll(() => isAlive(pid)).toBe(false);
      expect(JSON.parse(await readFile(path.join(first.dataDirectory, 'states.json'), 'utf8'))).toEqual({
        [uuid]: 'running',
      });
      expect(own.resets).toBe(1);

      const second = await startTestDaemon({ panel: own, dataDirectory: first.dataDirectory });
      try {
        const again = second.manager.get(uuid);
        await expect.poll(() => again?.state, { timeout: 10_000 }).toBe('running');
        expect(own.resets).toBe(2);
        await expect
          .poll(async () => JSON.parse(await readFile(path.join(first.dataDirectory, 'states.json'), 'utf8')))
          .toEqual({ [uuid]: 'running' });
        await again?.power('stop');
        await expect
          .poll(async () => JSON.parse(await readFile(path.join(first.dataDirectory, 'states.json'), 'utf8')))
          .toEqual({ [uuid]: 'offline' });
      } finally {
        await second.close();
      }
    } finally {
      await first.close();
      await own.close();
    }
  });
});

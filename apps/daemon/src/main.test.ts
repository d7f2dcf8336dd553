import type { ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { signTestToken } from './auth/testing/sign-token';
import { DAEMON_STOP_DEADLINE_MS } from './stop-signals';
import { processesRunning, startDaemonProcess, testDaemonEnv } from './testing/daemon-process';
import {
  demoConfiguration,
  PANEL_TOKEN,
  type PanelStandIn,
  startPanelStandIn,
} from './testing/panel-stand-in';
import { nodeStartup } from './testing/server-fixtures';

const UUID = 'c0ffee00-1234-4567-89ab-cdef01234567';
let panel: PanelStandIn;
let dataDirectory: string;
let child: ChildProcess | undefined;

beforeEach(async () => {
  panel = await startPanelStandIn();
  dataDirectory = await mkdtemp(path.join(tmpdir(), 'aerie-daemon-main-'));
});
afterEach(async () => {
  child?.kill('SIGKILL');
  await panel.close();
  await rm(dataDirectory, { recursive: true, force: true });
});

/** `aerie daemon` as `aerie up` starts it: a real child process with the contract's variables. */
function startDaemon(env: Record<string, string>) {
  const daemon = startDaemonProcess(env);
  child = daemon.process;
  return daemon;
}

const daemonEnv = () => testDaemonEnv(panel.url, dataDirectory);

/**
 * Sends `signal`, then again every 2 ms until the process exits: the daemon stops in some tens of ms, so repeats
 * land while it handles the first (as `aerie up` forwards the SIGTERM its process group already got).
 */
async function signalUntilExit(
  child: ChildProcess,
  signal: NodeJS.Signals,
  exited: Promise<number | null>,
): Promise<number | null> {
  child.kill(signal);
  const repeat = setInterval(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
  }, 2);
  try {
    return await exited;
  } finally {
    clearInterval(repeat);
  }
}

/** A daemon that booted and runs one game server (a script found by its own name). */
async function bootWithRunningGame() {
  // A name of its own: test files run in parallel, and the game is found by its command line.
  const game = `game-${process.pid}-${Date.now()}.cjs`;
  panel.servers.set(UUID, demoConfiguration(UUID, { invocation: nodeStartup(game), done: ['ready'] }));
  const daemon = startDaemon(daemonEnv());
  await expect.poll(daemon.output, { timeout: 30_000 }).toMatch(/listening on http:\/\/\S+/);
  const url = /listening on (http:\/\/\S+)/.exec(daemon.output())?.[1];
  await writeFile(
    path.join(dataDirectory, 'volumes', UUID, game),
    'console.log("ready"); process.stdin.resume();',
  );
  const headers = { authorization: `Bearer ${PANEL_TOKEN}`, 'content-type': 'application/json' };
  const power = await fetch(`${url}/api/servers/${UUID}/power`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ action: 'start' }),
  });
  expect(power.status).toBe(202);
  const state = async () =>
    ((await (await fetch(`${url}/api/servers/${UUID}`, { headers })).json()) as { state: string }).state;
  await expect.poll(state, { timeout: 20_000 }).toBe('running');
  return { daemon, game };
}

describe('aerie daemon', () => {
  it('says which variable is missing and exits', { timeout: 60_000 }, async () => {
    const daemon = startDaemon({ DAEMON_DATA_DIR: dataDirectory });
    expect(await daemon.exited).not.toBe(0);
    expect(daemon.output()).toContain('DAEMON_TOKEN_ID: is required');
    expect(daemon.output()).toContain('DAEMON_TOKEN: is required');
  });

  it('boots from the panel, runs a server, and on SIGINT (Ctrl-C) ends it but remembers it ran', {
    timeout: 60_000,
  }, async () => {
    // A name of its own: test files run in parallel, and the game is found by its command line.
    const game = `game-${process.pid}-${Date.now()}.cjs`;
    panel.servers.set(UUID, demoConfiguration(UUID, { invocation: nodeStartup(game), done: ['ready'] }));
    const daemon = startDaemon(daemonEnv());
    await expect
      .poll(daemon.output, { timeout: 20_000 })
      .toMatch(/Aerie daemon listening on http:\/\/127\.0\.0\.1:\d+/);
    const url = /listening on (http:\/\/\S+)/.exec(daemon.output())?.[1];
    expect(panel.resets).toBe(1);
    const volume = path.join(dataDirectory, 'volumes', UUID);
    expect((await stat(volume)).mode & 0o777).toBe(0o700);
    await writeFile(path.join(volume, game), 'console.log("ready"); process.stdin.resume();');
    const headers = { authorization: `Bearer ${PANEL_TOKEN}`, 'content-type': 'application/json' };
    const started = await fetch(`${url}/api/servers/${UUID}/power`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ action: 'start' }),
    });
    expect(started.status).toBe(202);
    const state = async () =>
      ((await (await fetch(`${url}/api/servers/${UUID}`, { headers })).json()) as { state: string }).state;
    await expect.poll(state, { timeout: 10_000 }).toBe('running');
    expect(await processesRunning(game)).toHaveLength(1);

    daemon.process.kill('SIGINT');
    expect(await daemon.exited).toBe(0);
    expect(await processesRunning(game)).toEqual([]);
    expect(JSON.parse(await readFile(path.join(dataDirectory, 'states.json'), 'utf8'))).toEqual({
      [UUID]: 'running',
    });
    await expect(fetch(`${url}/api/system`, { headers })).rejects.toThrow();
  });

  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    it(`exits 0 in time and keeps its states when ${signal} comes again while it stops`, {
      timeout: 60_000,
    }, async () => {
      const { daemon, game } = await bootWithRunningGame();
      const started = Date.now();
      expect(await signalUntilExit(daemon.process, signal, daemon.exited)).toBe(0);
      expect(Date.now() - started).toBeLessThan(DAEMON_STOP_DEADLINE_MS);
      // Ending the game takes long enough for repeats to land mid-way; leaving it running may take a few ms only,
      // so under SIGTERM a repeat is not always in time to be seen (stop-signals.test.ts covers it directly).
      if (signal === 'SIGINT') expect(daemon.output()).toContain(`${signal}: already stopping`);
      expect(JSON.parse(await readFile(path.join(dataDirectory, 'states.json'), 'utf8'))).toEqual({
        [UUID]: 'running',
      });
      const left = await processesRunning(game);
      // Ctrl-C ends the game; SIGTERM leaves it for the next daemon.
      for (const pid of left) process.kill(pid, 'SIGKILL');
      expect(left).toHaveLength(signal === 'SIGINT' ? 0 : 1);
    });
  }

  it('serves the files API and the signed download/upload URLs, one-time across a restart', {
    timeout: 60_000,
  }, async () => {
    panel.servers.set(UUID, demoConfiguration(UUID, { skipScripts: true }));
    const boot = async () => {
      const daemon = startDaemon({ ...daemonEnv(), DAEMON_UPLOAD_LIMIT_MB: '1' });
      await expect.poll(daemon.output, { timeout: 20_000 }).toMatch(/listening on http:\/\/\S+/);
      return { daemon, url: /listening on (http:\/\/\S+)/.exec(daemon.output())?.[1] ?? '' };
    };
    let { daemon, url } = await boot();
    const headers = { authorization: `Bearer ${PANEL_TOKEN}` };
    const written = await fetch(`${url}/api/servers/${UUID}/files/write?file=/docs/readme.txt`, {
      method: 'POST',
      headers,
      body: 'read me',
    });
    expect(written.status).toBe(204);
    const listing = await fetch(`${url}/api/servers/${UUID}/files/list-directory?directory=/docs`, {
      headers,
    });
    expect(await listing.json()).toEqual([expect.objectContaining({ name: 'readme.txt', size: 7 })]);

    const sign = (claims: Record<string, unknown>) =>
      signTestToken({ server_uuid: UUID, unique_id: `id-${Math.random()}`, ...claims }, { key: PANEL_TOKEN });
    const downloadToken = await sign({ purpose: 'file_download', file_path: '/docs/readme.txt' });
    const download = () => fetch(`${url}/download/file?token=${downloadToken}`);
    expect(await (await download()).text()).toBe('read me');

    const body = new FormData();
    body.append('files', new Blob(['uploaded']), 'upload.txt');
    body.append('files', new Blob([Buffer.alloc(1024 * 1024 + 1)]), 'too-big.bin');
    const oversize = await fetch(
      `${url}/upload/file?token=${await sign({ purpose: 'file_upload' })}&directory=/docs`,
      {
        method: 'POST',
        body,
      },
    );
    expect(oversize.status).toBe(400);
    await expect(stat(path.join(dataDirectory, 'volumes', UUID, 'docs', 'upload.txt'))).rejects.toThrow();

    daemon.process.kill('SIGTERM');
    expect(await daemon.exited).toBe(0);
    ({ daemon, url } = await boot());
    expect((await download()).status).toBe(403);
    daemon.process.kill('SIGTERM');
    expect(await daemon.exited).toBe(0);
  });
});

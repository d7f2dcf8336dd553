import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { createAerieEnvironment, isAlive } from '@aerie/panel/test/aerie-environment';
import { aerieBin } from '@aerie/panel/test/aerie-up-process';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { STOP_DEADLINE_MS } from './shutdown';

let env: Record<string, string>;
let remove: () => Promise<void>;
const started: ChildProcess[] = [];

beforeAll(async () => {
  ({ env, remove } = await createAerieEnvironment('aerie-signals-', { DAEMON_PORT: '0' }));
  // `aerie panel` serves only a migrated database.
  const migrate = spawnSync(process.execPath, [aerieBin, 'migrate'], {
    env: { ...process.env, ...env },
    encoding: 'utf8',
  });
  expect(migrate.status, migrate.stderr).toBe(0);
});
afterEach(() => {
  // Whatever a failed case left: its whole process group (every child was started as a group leader).
  for (const child of started.splice(0)) {
    for (const pid of groupMembers(child.pid as number)) process.kill(pid, 'SIGKILL');
  }
});
afterAll(async () => {
  await remove?.();
});

/**
 * A real `aerie <command>`, leading a process group of its own as it would in a terminal or under a service
 * manager; `ready` resolves once its output matches every pattern.
 */
function startAerie(command: 'up' | 'panel', ready: RegExp[]) {
  const child = spawn(process.execPath, [aerieBin, command], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  started.push(child);
  let output = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const isReady = new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk;
      if (ready.every((pattern) => pattern.test(output))) resolve();
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    exited.then((code) => reject(new Error(`aerie ${command} exited with ${code}:\n${output}`)));
  });
  return { child, pid: child.pid as number, ready: isReady, exited, output: () => output };
}

/**
 * Sends the first lines of a request now, its last header after `holdMs`; resolves once the request is under way,
 * with the whole answer to come.
 */
async function slowRequest(url: URL, holdMs: number): Promise<{ answer: Promise<string> }> {
  const socket = connect(Number(url.port), url.hostname);
  await new Promise((resolve) => socket.once('connect', resolve));
  socket.write(`GET /auth/login HTTP/1.1\r\nHost: ${url.host}\r\n`);
  let answer = '';
  socket.on('data', (chunk) => {
    answer += chunk;
  });
  const answered = new Promise<string>((resolve) => socket.once('close', () => resolve(answer)));
  // Let the panel read the head before the first signal.
  await new Promise((resolve) => setTimeout(resolve, 100));
  setTimeout(() => socket.write('Connection: close\r\n\r\n'), holdMs);
  return { answer: answered };
}

/** Pids of the live (not zombie) processes in process group `group`, from /proc. */
function groupMembers(group: number): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((name) => {
      try {
        const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
        const [state, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        return state !== 'Z' && Number(pgrp) === group;
      } catch {
        return false; // gone meanwhile
      }
    })
    .map(Number);
}

/**
 * Sends `signal` to `target` (a pid, or a process group as -pid), then, once aerie says it is shutting down, again
 * every 2 ms until it exits: its cleanup takes some ms, so repeats land while it runs. Resolves with the exit code.
 */
async function signalAgainUntilExit(
  aerie: ReturnType<typeof startAerie>,
  signal: NodeJS.Signals,
  target: number,
): Promise<number | null> {
  process.kill(target, signal);
  await expect.poll(aerie.output, { timeout: 5_000, interval: 2 }).toContain(`${signal} received`);
  const again = () => {
    try {
      if (aerie.child.exitCode === null && aerie.child.signalCode === null) process.kill(target, signal);
    } catch {
      // Gone meanwhile.
    }
  };
  again();
  const repeat = setInterval(again, 2);
  try {
    return await aerie.exited;
  } finally {
    clearInterval(repeat);
  }
}

describe('stopping aerie on signals', { timeout: 30_000 }, () => {
  it('`aerie up`: SIGTERM again and again to its process group stops it, the panel and the daemon, leaving no process', async () => {
    const up = startAerie('up', [/Aerie is running at http/, /Aerie daemon listening on/]);
    await up.ready;
    const members = groupMembers(up.pid);
    // aerie up (the panel) and its daemon, at least.
    expect(members.length).toBeGreaterThanOrEqual(2);
    const began = Date.now();
    expect(await signalAgainUntilExit(up, 'SIGTERM', -up.pid)).toBe(0);
    expect(Date.now() - began).toBeLessThan(STOP_DEADLINE_MS);
    expect(up.output()).toContain('Aerie stopped.');
    expect(up.output()).toContain('SIGTERM: already stopping');
    await expect.poll(() => members.filter(isAlive), { timeout: 5_000 }).toEqual([]);
    expect(groupMembers(up.pid)).toEqual([]);
  });

  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    it(`\`aerie panel\`: ${signal}, repeated, stops it gracefully in time, answering the request in flight`, async () => {
      const panel = startAerie('panel', [/Aerie panel is running at http/]);
      await panel.ready;
      const url = new URL(/running at (http:\/\/\S+)/.exec(panel.output())?.[1] ?? '');
      // A request still arriving holds the panel's close for a second: the repeats land while it waits.
      const request = await slowRequest(url, 1_000);
      const began = Date.now();
      expect(await signalAgainUntilExit(panel, signal, panel.pid)).toBe(0);
      expect(Date.now() - began).toBeLessThan(STOP_DEADLINE_MS);
      // Answered (503: the panel was closing), not cut off.
      expect(await request.answer).toMatch(/^HTTP\/1\.1 503 /);
      expect(panel.output()).toContain(`${signal}: already stopping`);
      expect(isAlive(panel.pid)).toBe(false);
    });
  }
});

import type { EventEmitter } from 'node:events';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RuntimeLimits, RuntimeStartOptions } from '@aerie/daemon/runtime/runtime';

/** The demo game server that ships with Aerie: a real process with a start line, console commands and `stop`. */
export const DEMO_SERVER = fileURLToPath(new URL('../../../../eggs/demo/demo-server.mjs', import.meta.url));

/** The startup command running a script with this very Node binary (PATH may not have one). */
export const nodeStartup = (script: string) => `"${process.execPath}" "${script}"`;

/** A fresh server directory, removed by the returned cleanup. */
export async function serverDirectory(): Promise<{ directory: string; cleanup: () => Promise<void> }> {
  const directory = await mkdtemp(path.join(tmpdir(), 'aerie-daemon-test-'));
  return { directory, cleanup: () => rm(directory, { recursive: true, force: true }) };
}

/** Writes a small script into the server directory and returns its path. */
export async function writeScript(directory: string, name: string, source: string): Promise<string> {
  const file = path.join(directory, name);
  await writeFile(file, source);
  return file;
}

/** Resolves with the first event's arguments that satisfy `accept`; rejects after `timeoutMs`. */
export function waitForEvent<T extends unknown[]>(
  emitter: EventEmitter,
  event: string,
  accept: (...args: T) => boolean = () => true,
  timeoutMs = 5000,
): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      emitter.off(event, listener);
      reject(new Error(`No matching "${event}" event within ${timeoutMs} ms`));
    }, timeoutMs);
    const listener = (...args: T) => {
      if (!accept(...args)) return;
      clearTimeout(timer);
      emitter.off(event, listener);
      resolve(args);
    };
    emitter.on(event, listener);
  });
}

/** True while a process with this pid runs: a zombie (ended, not yet reaped by its new parent) is not alive. */
export function isAlive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The state letter follows the command name, which is in parentheses and may itself hold spaces.
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

/** No limits and a local allocation: what a test runtime start needs besides its command. */
export const TEST_LIMITS: RuntimeLimits = {
  memoryMb: 0,
  swapMb: 0,
  cpuPercent: 0,
  threads: null,
  ioWeight: 0,
  oomDisabled: false,
  diskMb: 0,
};

/** Full start options for a test: the command, directory and environment, the rest defaulted. */
export function startOptions(
  options: Pick<RuntimeStartOptions, 'directory' | 'startup'> & Partial<RuntimeStartOptions>,
): RuntimeStartOptions {
  return {
    uuid: '8d7a5a8e-6d0f-4c4b-9d1e-2f1f0c3a9b11',
    environment: {},
    image: '~process',
    limits: TEST_LIMITS,
    allocations: { default: { ip: '127.0.0.1', port: 0 }, mappings: {} },
    ...options,
  };
}

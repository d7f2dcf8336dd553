import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { succeedRunner } from './runner-identity';

/**
 * Which runner's claims a starting panel may take over at once: only its data directory's previous runner, and
 * only when that process is surely gone. Real files, real processes.
 */

let dataDir: string;
const file = () => join(dataDir, 'schedule-runner.json');
const record = (value: unknown) => writeFileSync(file(), JSON.stringify(value));

/** A process that runs until killed (the live panel sharing the folder). */
function liveProcess() {
  return spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
}

/** The pid of a process that has exited. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' });
  await new Promise((resolve) => child.once('exit', resolve));
  return child.pid as number;
}

beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'aerie-runner-identity-'));
});
afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

describe('succeedRunner', () => {
  it('records this runner, and hands over nothing the first time', () => {
    expect(succeedRunner(dataDir, 'aaaa')).toBeNull();
    expect(JSON.parse(readFileSync(file(), 'utf8'))).toEqual({
      runner: 'aaaa',
      pid: process.pid,
      host: hostname(),
    });
  });

  it('names the previous runner when its process has exited, or had this very pid (a restarted container)', async () => {
    record({ runner: 'bbbb', pid: await deadPid(), host: hostname() });
    expect(succeedRunner(dataDir, 'cccc')).toBe('bbbb');
    record({ runner: 'dddd', pid: process.pid, host: hostname() });
    expect(succeedRunner(dataDir, 'eeee')).toBe('dddd');
  });

  it('names nobody while the previous runner’s process lives (a second panel on the folder), or on another host', async () => {
    const live = liveProcess();
    try {
      record({ runner: 'bbbb', pid: live.pid, host: hostname() });
      expect(succeedRunner(dataDir, 'cccc')).toBeNull();
    } finally {
      live.kill('SIGKILL');
    }
    record({ runner: 'dddd', pid: await deadPid(), host: `${hostname()}-elsewhere` });
    expect(succeedRunner(dataDir, 'eeee')).toBeNull();
  });

  it('ignores a file that is not its own: garbage, a runner id that is not hex, a pid that is not a process', () => {
    for (const content of [
      'not json',
      JSON.stringify({ runner: "x%' or 1=1", pid: 1, host: hostname() }),
      JSON.stringify({ runner: 'ffff', pid: 0, host: hostname() }),
      JSON.stringify({ runner: 'ffff', pid: -1, host: hostname() }),
    ]) {
      writeFileSync(file(), content);
      expect(succeedRunner(dataDir, 'abcd')).toBeNull();
    }
  });
});

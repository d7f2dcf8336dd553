import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';

/** In DATA_DIR: which schedule runner the last panel started from this data directory had. */
const FILE = 'schedule-runner.json';

interface Recorded {
  runner: string;
  pid: number;
  host: string;
}

/**
 * Records `runnerId` as the schedule runner of the panel serving from `dataDir`, and returns the runner it
 * replaces when that one's process is surely gone, so its claims can be taken over at once instead of after their
 * lease: the same host, and its pid is this process's own (a container restarted) or no longer alive. Anything
 * less certain (another host sharing the folder, a live process that may be a second panel on the same folder)
 * returns null, and those claims wait for their lease to lapse, so a live runner's run is never taken from it.
 */
export function succeedRunner(dataDir: string, runnerId: string): string | null {
  const file = join(dataDir, FILE);
  const previous = readRecorded(file);
  const mine: Recorded = { runner: runnerId, pid: process.pid, host: hostname() };
  // Written whole, then renamed over the old one: a crash never leaves half a file.
  writeFileSync(`${file}.tmp`, `${JSON.stringify(mine)}\n`);
  renameSync(`${file}.tmp`, file);
  if (!previous || previous.host !== mine.host || previous.runner === runnerId) return null;
  if (previous.pid !== process.pid && isAlive(previous.pid)) return null;
  return previous.runner;
}

function readRecorded(file: string): Recorded | null {
  try {
    const value = JSON.parse(readFileSync(file, 'utf8')) as Partial<Recorded>;
    if (typeof value.runner !== 'string' || !/^[0-9a-f]{1,64}$/.test(value.runner)) return null;
    if (!Number.isInteger(value.pid) || (value.pid as number) <= 0 || typeof value.host !== 'string')
      return null;
    return value as Recorded;
  } catch {
    return null;
  }
}

/** Whether a process exists (EPERM: it does, as another user's). */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

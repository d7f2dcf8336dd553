import { readFileSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

/** A process as it was when the daemon started it: its pid and the kernel's start time, so a reused pid is not it. */
export interface ProcessMark {
  pid: number;
  started: string;
}

/** What one server's user-mode network is made of: the namespace keeper and slirp4netns, once started. */
export interface UserModeRun {
  keeper: ProcessMark;
  slirp?: ProcessMark;
}

/** The files of one run in the daemon's user-mode folder: its record, slirp4netns's API socket and its log. */
export function runFiles(directory: string, uuid: string) {
  return {
    record: path.join(directory, `${uuid}.json`),
    socket: path.join(directory, `${uuid}.sock`),
    log: path.join(directory, `${uuid}.log`),
  };
}

/** The mark of a live process, or undefined when it is gone. */
export function processMark(pid: number): ProcessMark | undefined {
  try {
    // The start time is field 22; the name (field 2) may hold spaces, so count from its closing parenthesis.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const started = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
    return started === undefined ? undefined : { pid, started };
  } catch {
    return undefined;
  }
}

/** True while the marked process runs (not a zombie, not another process under its pid). */
function isRunning(mark: ProcessMark): boolean {
  try {
    const stat = readFileSync(`/proc/${mark.pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return fields[0] !== 'Z' && fields[19] === mark.started;
  } catch {
    return false;
  }
}

export async function writeRun(directory: string, uuid: string, run: UserModeRun): Promise<void> {
  await writeFile(runFiles(directory, uuid).record, JSON.stringify(run), { mode: 0o600 });
}

/**
 * Ends what a server's last run left (slirp4netns, then the keeper, each with its process group) and removes its
 * files. A record outlives a daemon crash, so a restarted daemon ends the leftovers of a run whose game is gone.
 */
export async function endRun(directory: string, uuid: string): Promise<void> {
  const files = runFiles(directory, uuid);
  let run: UserModeRun | undefined;
  try {
    run = JSON.parse(await readFile(files.record, 'utf8')) as UserModeRun;
  } catch {
    run = undefined;
  }
  const live = [run?.slirp, run?.keeper].filter(
    (mark): mark is ProcessMark => mark !== undefined && isRunning(mark),
  );
  for (const mark of live) {
    try {
      process.kill(-mark.pid, 'SIGKILL');
    } catch {
      // Gone in the meantime.
    }
  }
  // A killed process lets go of its ports a moment later: the next start may want them back at once.
  for (let i = 0; i < 200 && live.some(isRunning); i++)
    await new Promise((resolve) => setTimeout(resolve, 10));
  await Promise.all(Object.values(files).map((file) => rm(file, { force: true })));
}

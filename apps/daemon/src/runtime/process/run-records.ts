import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { readProcStat } from './proc-stat';

/** A process told apart from any later one given the same pid. */
export interface ProcessIdentity {
  pid: number;
  startTicks: number;
}

/**
 * What the daemon started for a server, written before the daemon relies on it: should the holder die too, or an
 * install be cut short by a crash, the next daemon still finds and ends what is left. `server` for a game run
 * (its holder and the game's launcher), `install` for an install script's launcher.
 */
export interface RunRecord {
  holder?: ProcessIdentity;
  leader?: ProcessIdentity;
}

export type RunKind = 'server' | 'install';

const recordFile = (runDirectory: string, uuid: string, kind: RunKind) =>
  path.join(runDirectory, kind === 'server' ? `${uuid}.json` : `${uuid}.install.json`);

/** The identity of a live process, or undefined once it is gone. */
export function identify(pid: number | undefined): ProcessIdentity | undefined {
  if (pid === undefined) return undefined;
  const stat = readProcStat(pid);
  return stat ? { pid, startTicks: stat.startTicks } : undefined;
}

/** Still the same process (not gone, not a later one with its pid). */
export const stillRunning = (identity: ProcessIdentity | undefined): identity is ProcessIdentity =>
  identity !== undefined && readProcStat(identity.pid)?.startTicks === identity.startTicks;

/**
 * Best effort: a full disk must not stop a server from starting. Without the record, a holder that dies with its
 * game still running is found through the server's control group (root) or not at all.
 */
export async function writeRunRecord(
  runDirectory: string,
  uuid: string,
  kind: RunKind,
  record: RunRecord,
): Promise<void> {
  await writeFile(recordFile(runDirectory, uuid, kind), JSON.stringify(record), { mode: 0o600 }).catch(
    () => undefined,
  );
}

export async function removeRunRecord(runDirectory: string, uuid: string, kind: RunKind): Promise<void> {
  await rm(recordFile(runDirectory, uuid, kind), { force: true }).catch(() => undefined);
}

/**
 * Ends what a record names, if it is still the process that was recorded: the holder, then the launcher's whole
 * process group. Returns whether anything was still running.
 */
export async function endRecorded(runDirectory: string, uuid: string, kind: RunKind): Promise<boolean> {
  let record: RunRecord;
  try {
    record = JSON.parse(await readFile(recordFile(runDirectory, uuid, kind), 'utf8')) as RunRecord;
  } catch {
    return false;
  }
  let found = false;
  if (stillRunning(record.holder)) {
    found = true;
    signal(record.holder.pid, 'SIGKILL');
  }
  if (stillRunning(record.leader)) {
    found = true;
    signal(-record.leader.pid, 'SIGKILL');
  }
  await removeRunRecord(runDirectory, uuid, kind);
  return found;
}

function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch {
    // Gone in the meantime.
  }
}

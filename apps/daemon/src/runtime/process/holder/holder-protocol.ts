/**
 * What a daemon and a server's holder say to each other over the holder's Unix socket: one JSON object per line.
 * The version lets a daemon upgraded while its games run tell an older holder from one it can drive.
 */
export const HOLDER_PROTOCOL_VERSION = 1;

/** Longest message line either side reads: a 64 KiB console line, JSON-escaped, fits. */
export const HOLDER_MESSAGE_MAX_BYTES = 512 * 1024;

/** What the daemon gives a new holder on its stdin: what to run, and what to hand back to any later daemon. */
export interface HolderSpec {
  uuid: string;
  file: string;
  args: string[];
  cwd: string;
  env: Record<string, string>;
  /** Which sandbox runs the command: signals then skip its launcher (see signalInsideSandbox). */
  sandboxed: false | 'bubblewrap' | 'unshare';
  /** Given back unread in every hello: what the daemon needs to drive this run again after a restart. */
  meta: HolderMeta;
}

/** The daemon's own notes on a run, kept by the holder for the next daemon. */
export interface HolderMeta {
  /** The memory limit the run started with, in bytes; 0 = none. */
  memoryLimitBytes: number;
  /** The server's out-of-memory kill count when the run started (the count of its control group). */
  oomKillsBefore: number;
}

/** How the game ended, as the holder saw it. */
export interface HolderExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** Holder → daemon. */
export type HolderMessage =
  | {
      t: 'hello';
      v: number;
      uuid: string;
      /** The game's launcher: the leader of its process group. */
      pid: number;
      /** ms since the epoch the game was spawned. */
      startedAt: number;
      sandboxed: HolderSpec['sandboxed'];
      meta: HolderMeta;
    }
  /** One console line, numbered from 1 in the order the game printed it. */
  | { t: 'line'; n: number; s: string }
  /** The game and everything it started are gone; after the last line. */
  | { t: 'exit'; code: number | null; signal: NodeJS.Signals | null };

/** Daemon → holder. */
export type DaemonMessage =
  /** Send every kept line numbered above `after`, then each new one, then the exit. */
  | { t: 'attach'; after: number }
  | { t: 'write'; s: string }
  | { t: 'signal'; signal: NodeJS.Signals }
  | { t: 'kill' }
  /** The daemon has the exit: the holder may go. */
  | { t: 'release' };

/** One message as a line. */
export const encodeMessage = (message: HolderMessage | DaemonMessage): string =>
  `${JSON.stringify(message)}\n`;

/** A line back into a message; undefined for anything that is not an object with a `t` (a cut line, noise). */
export function decodeMessage<T extends { t: string }>(line: string): T | undefined {
  try {
    const value = JSON.parse(line) as unknown;
    return value && typeof value === 'object' && typeof (value as { t?: unknown }).t === 'string'
      ? (value as T)
      : undefined;
  } catch {
    return undefined;
  }
}

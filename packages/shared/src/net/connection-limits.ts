import { readFileSync } from 'node:fs';

/**
 * Bounds on an HTTP server's connections (Node-only, like everything in `net/`): the daemon's (issue 22 finding 5:
 * 22,000 half-sent requests from one address reached the descriptor limit) and the panel's (the same flood took
 * the panel's sign-in page down). Applied by `guardConnections` (connection-guard.ts).
 */
export interface ConnectionLimits {
  /**
   * Open connections from one client address, the TCP peer's (HTTP and websockets alike; TRUST_PROXY plays no
   * part). Past it the address's longest-unused connection that never proved itself is closed for the new one;
   * when every one of them has, the new one is. Behind a reverse proxy every client shares the proxy's address:
   * raise it there.
   */
  maxPerAddress: number;
  /**
   * Open connections in all, kept below the process's descriptor limit so the files, pipes, database and game
   * processes have descriptors left. Past it the longest-unused connection that never proved itself (no node
   * token, signed URL, console `auth`, session or API key) is closed for the new one, so a flood from any number
   * of addresses cannot keep real requests out.
   */
  maxConnections: number;
  /**
   * Time from connecting (or from the end of the previous response on a kept-alive connection) to the request's
   * last header byte; a connection that takes longer gets 408 and is closed (slowloris).
   */
  headersTimeoutMs: number;
  /**
   * Longest silence while a request body is arriving or a response is being sent; past it the connection is
   * closed. Idle time rather than a total, so a 100 MiB upload or download on a slow link is never cut while its
   * bytes keep moving, and the time a handler works (a big compress) or a websocket lives is not bounded at all.
   */
  idleTimeoutMs: number;
  /** How long a kept-alive connection may wait for its next request. */
  keepAliveTimeoutMs: number;
}

/** Descriptors kept out of the connection ceiling for everything else the process opens. */
export const DESCRIPTOR_RESERVE = 256;
/** The ceiling never goes above this, whatever the descriptor limit. */
export const MAX_CONNECTIONS_CAP = 16_384;

/**
 * The open-files soft limit (`ulimit -n`) from /proc/self/limits (Node has no getrlimit); undefined when it cannot
 * be read or is unlimited.
 */
export function openFilesLimit(limitsFile = '/proc/self/limits'): number | undefined {
  try {
    const line = readFileSync(limitsFile, 'utf8')
      .split('\n')
      .find((candidate) => candidate.startsWith('Max open files'));
    const soft = line?.slice('Max open files'.length).trim().split(/\s+/)[0];
    const value = Number(soft);
    return Number.isSafeInteger(value) && value > 0 ? value : undefined;
  } catch {
    return undefined;
  }
}

/** min(descriptor limit − 256, 16384), and at least a handful when the limit is tiny. */
export function connectionCeiling(descriptorLimit = openFilesLimit()): number {
  if (descriptorLimit === undefined) return MAX_CONNECTIONS_CAP;
  return Math.min(MAX_CONNECTIONS_CAP, Math.max(descriptorLimit - DESCRIPTOR_RESERVE, 16));
}

/** The limits the panel and the daemon run with unless told otherwise; the ceiling from the descriptor limit. */
export function defaultConnectionLimits(): ConnectionLimits {
  return {
    maxPerAddress: 256,
    maxConnections: connectionCeiling(),
    headersTimeoutMs: 15_000,
    idleTimeoutMs: 60_000,
    keepAliveTimeoutMs: 5_000,
  };
}

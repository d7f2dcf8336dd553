import { readFileSync } from 'node:fs';

/**
 * Bounds on the daemon's HTTP connections (issue 22 finding 5: 22,000 half-sent requests from one address reached
 * the descriptor limit). Each is an option of buildDaemonApp; the defaults are what `aerie daemon` runs with.
 */
export interface ConnectionLimits {
  /**
   * Open connections from one client address (HTTP and websockets alike). The next one is destroyed as soon as
   * it is accepted. Behind a reverse proxy every client shares the proxy's address: raise it there.
   */
  maxPerAddress: number;
  /**
   * Open connections in all; past it the kernel's new connections are closed on accept. Kept below the process's
   * descriptor limit so the files, pipes and game processes the daemon opens always have descriptors left.
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

/** Descriptors kept out of the connection ceiling for everything else the daemon opens. */
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

/** The limits `aerie daemon` runs with; the ceiling is read from this process's descriptor limit. */
export function defaultConnectionLimits(): ConnectionLimits {
  return {
    maxPerAddress: 256,
    maxConnections: connectionCeiling(),
    headersTimeoutMs: 15_000,
    idleTimeoutMs: 60_000,
    keepAliveTimeoutMs: 5_000,
  };
}

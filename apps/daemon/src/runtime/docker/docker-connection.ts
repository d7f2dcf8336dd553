import Docker from 'dockerode';

/** Where the engine listens when nothing says otherwise (the Docker CLI's default too). */
export const DEFAULT_DOCKER_SOCKET = '/var/run/docker.sock';

/**
 * A client for the engine at `host`, written like DOCKER_HOST: `unix:///path/docker.sock`, `tcp://host:2375`,
 * or a bare socket path. No API version is pinned: dockerode then sends unversioned paths, which every engine
 * (Debian's 20.10 caps at API 1.41) answers in its own newest version.
 */
export function dockerFromHost(host: string | undefined = process.env.DOCKER_HOST): Docker {
  if (!host) return new Docker({ socketPath: DEFAULT_DOCKER_SOCKET });
  if (host.startsWith('unix://')) return new Docker({ socketPath: host.slice('unix://'.length) });
  if (host.startsWith('/')) return new Docker({ socketPath: host });
  const url = new URL(host.replace(/^tcp:\/\//, 'http://'));
  return new Docker({
    protocol: url.protocol === 'https:' ? 'https' : 'http',
    host: url.hostname,
    port: url.port || (url.protocol === 'https:' ? 2376 : 2375),
  });
}

/** The HTTP status of an engine error (dockerode sets `statusCode`), or undefined for anything else. */
export function engineStatus(error: unknown): number | undefined {
  if (typeof error !== 'object' || error === null || !('statusCode' in error)) return undefined;
  return typeof error.statusCode === 'number' ? error.statusCode : undefined;
}

/** The engine's own message for a failed call (`(HTTP code 404) no such container - …` → the JSON message). */
export function engineMessage(error: unknown): string {
  if (typeof error === 'object' && error !== null && 'json' in error) {
    const json = error.json as { message?: unknown } | null;
    if (json && typeof json.message === 'string') return json.message;
  }
  return error instanceof Error ? error.message : String(error);
}

/** Awaits an engine call that may find nothing to act on (already removed, not running): 404 and 409 are fine. */
export async function ignoringGone(call: Promise<unknown>): Promise<void> {
  try {
    await call;
  } catch (error) {
    const status = engineStatus(error);
    if (status !== 404 && status !== 409 && status !== 304) throw error;
  }
}

/** Socket errors that mean no engine listens where the daemon looks (as opposed to an engine refusing a call). */
const UNREACHABLE = new Set(['ENOENT', 'ECONNREFUSED', 'EACCES', 'ETIMEDOUT', 'EHOSTUNREACH', 'ECONNRESET']);

/**
 * Says "the engine does not answer" when that is why a call failed (instead of a bare `connect ENOENT`), so an
 * administrator who chose RUNTIME=docker sees what to fix; any other error is returned unchanged.
 */
export function explainEngineError(error: unknown, address: string): unknown {
  if (engineStatus(error) !== undefined || typeof error !== 'object' || error === null) return error;
  const code = 'code' in error ? String(error.code) : '';
  if (!UNREACHABLE.has(code)) return error;
  return new Error(
    `The Docker engine at ${address} does not answer (${code}): is dockerd running, and is DOCKER_HOST right?`,
  );
}

/** The address a client talks to, as DOCKER_HOST would write it. */
export function engineAddress(docker: Docker): string {
  const modem = docker.modem as unknown as { socketPath?: string; host?: string; port?: string | number };
  if (modem.socketPath) return `unix://${modem.socketPath}`;
  return `tcp://${modem.host ?? 'localhost'}:${modem.port ?? 2375}`;
}

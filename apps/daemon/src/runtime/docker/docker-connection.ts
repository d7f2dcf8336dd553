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

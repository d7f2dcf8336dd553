import { setTimeout as sleep } from 'node:timers/promises';
import {
  type DaemonClient,
  type DaemonNode,
  DaemonResponseError,
} from '@aerie/panel/daemon-client/daemon-client';
import type { Db } from '@aerie/panel/db/database';
import {
  type ServerRow,
  serverRowsWhere,
  updateServerRow,
} from '@aerie/panel/features/servers/servers.repository';

/**
 * Polls the daemon's `GET /api/system` with the node's token until it answers, for at most `timeoutMs`.
 * @returns true once it answered, false on time-out or abort
 */
export async function waitForDaemon(
  daemon: DaemonClient,
  node: DaemonNode,
  options: { timeoutMs?: number; intervalMs?: number; signal?: AbortSignal } = {},
): Promise<boolean> {
  const deadline = Date.now() + (options.timeoutMs ?? 30_000);
  while (!options.signal?.aborted) {
    try {
      await daemon.system(node);
      return true;
    } catch {
      // Not listening yet, or still booting.
    }
    if (Date.now() >= deadline) return false;
    await sleep(options.intervalMs ?? 250, undefined, { signal: options.signal }).catch(() => {});
  }
  return false;
}

export interface InstallDispatch {
  /** uuids the daemon accepted to install. */
  dispatched: string[];
  /** uuids it refused or could not be asked about, with why. */
  failed: { uuid: string; message: string }[];
}

/**
 * Has the daemon install a server: `POST /api/servers {uuid, start_on_completion:false}` creates and installs
 * one it does not know; one it already loaded from the panel at boot (every server of the node, installed or
 * not) is installed in place with `POST /api/servers/{uuid}/install`, as creating it again would not.
 */
async function installOn(daemon: DaemonClient, node: DaemonNode, uuid: string): Promise<void> {
  try {
    await daemon.forServer(node, uuid).details();
  } catch (error) {
    if (error instanceof DaemonResponseError && error.status === 404) {
      return daemon.forServer(node, uuid).create(false);
    }
    throw error;
  }
  await daemon.forServer(node, uuid).install();
}

/**
 * No installed_at, and a status of installing, none, or install_failed: a first install its daemon lost (a failed
 * script sets installed_at).
 */
const neverInstalled = (server: ServerRow) =>
  server.installed_at === null &&
  (server.status === null || server.status === 'installing' || server.status === 'install_failed');

/**
 * Hands the node's servers that were never installed to its daemon (see installOn): every server whose
 * installed_at is null and whose status is installing, null, or install_failed (what a booting daemon makes of
 * an install it lost; a script that failed sets installed_at). Each is marked installing first, so the
 * panel shows it installing until the daemon reports back on /api/remote. A server the daemon refuses stays
 * installing, and is tried again on the next boot.
 */
export async function dispatchPendingInstalls(
  db: Db,
  daemon: DaemonClient,
  node: DaemonNode & { id: number },
  options: { now?: () => Date; print?: (line: string) => void } = {},
): Promise<InstallDispatch> {
  const now = options.now ?? (() => new Date());
  // A node has few servers: its rows are read whole and the never-installed ones picked here.
  const pending = (await serverRowsWhere(db, 'node_id', [node.id])).filter(neverInstalled);
  const result: InstallDispatch = { dispatched: [], failed: [] };
  for (const server of pending) {
    await updateServerRow(db, server.id, { status: 'installing', updated_at: now() });
    try {
      await installOn(daemon, node, server.uuid);
      result.dispatched.push(server.uuid);
      options.print?.(`Installing "${server.name}" on ${node.name}.`);
    } catch (error) {
      const message =
        error instanceof DaemonResponseError ? `${error.status} ${error.message}` : (error as Error).message;
      result.failed.push({ uuid: server.uuid, message });
      options.print?.(`Could not install "${server.name}" on ${node.name}: ${message}`);
    }
  }
  return result;
}

import type { DaemonClient } from '@aerie/panel/daemon-client/daemon-client';
import { DaemonUnreachableError } from '@aerie/panel/daemon-client/daemon-client';
import { daemonHttpError } from '@aerie/panel/daemon-client/daemon-http-error';
import type { Db } from '@aerie/panel/db/database';
import type { NodeRecord } from '@aerie/panel/features/nodes/node-record';
import { findNodeById } from '@aerie/panel/features/servers/servers.repository';
import { HttpError } from '@aerie/panel/http/errors';
import type { Log } from '@aerie/panel/logging/log';
import type { AdminServer } from './admin-server';

/** What the admin's server services share: the database, the daemon, the clock and the log. */
export interface AdminServerDeps {
  db: Db;
  daemon: DaemonClient;
  clock: () => Date;
  log: Log;
}

/**
 * A failed daemon call as the Application API reports it (reference §6.3): 504 when the daemon cannot be
 * reached, else as the client API does.
 */
export function applicationDaemonError(error: unknown): unknown {
  const mapped = daemonHttpError(error);
  if (error instanceof DaemonUnreachableError && mapped instanceof HttpError) {
    return new HttpError(504, mapped.code, mapped.detail);
  }
  return mapped;
}

/** Calls the daemon of the server's node about it. */
export async function onDaemon<T>(
  deps: AdminServerDeps,
  server: { nodeId: number; uuid: string },
  call: (daemon: ReturnType<DaemonClient['forServer']>, node: NodeRecord) => Promise<T>,
): Promise<T> {
  const node = await findNodeById(deps.db, server.nodeId);
  return call(deps.daemon.forServer(node, server.uuid), node);
}

export const daemonTarget = (server: AdminServer) => ({ nodeId: server.row.node_id, uuid: server.row.uuid });

/** Has the daemon read the server's configuration again; an unreachable daemon reads it at its next boot. */
export async function syncQuietly(deps: AdminServerDeps, server: AdminServer) {
  try {
    await onDaemon(deps, daemonTarget(server), (daemon) => daemon.sync());
  } catch (error) {
    if (!(error instanceof DaemonUnreachableError)) throw applicationDaemonError(error);
    deps.log.warn({ err: error }, `Could not tell the daemon of server ${server.row.uuid} about its change`);
  }
}

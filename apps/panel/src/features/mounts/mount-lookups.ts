import type { Db } from '@aerie/panel/db/database';
import { readBool } from '@aerie/panel/db/dialect';
import { daemonMountsOfServers, mountSourcesOfNode } from './mounts.repository';

/** What other features read of mounts: the daemon's configuration of servers and nodes. */

export type DaemonMount = { source: string; target: string; read_only: boolean };

/** Each server's mounts as the daemon's configuration lists them (Wings' `mounts`), by server id. */
export async function daemonMountsByServer(
  db: Db,
  nodeId: number,
  serverIds: readonly number[],
): Promise<Map<number, DaemonMount[]>> {
  const byServer = new Map<number, DaemonMount[]>();
  for (const row of await daemonMountsOfServers(db, nodeId, serverIds)) {
    const list = byServer.get(row.server_id) ?? [];
    list.push({ source: row.source, target: row.target, read_only: readBool(row.read_only) });
    byServer.set(row.server_id, list);
  }
  return byServer;
}

/** A node's `allowed_mounts`: the sources of the mounts attached to it. */
export const allowedMountsOfNode = (db: Db, nodeId: number): Promise<string[]> =>
  mountSourcesOfNode(db, nodeId);

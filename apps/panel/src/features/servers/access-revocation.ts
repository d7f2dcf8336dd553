import type { DaemonClient } from '@aerie/panel/daemon-client/daemon-client';
import type { Db } from '@aerie/panel/db/database';
import { daemonJti } from '@aerie/panel/features/console/daemon-jwt';
import type { NodeRecord } from '@aerie/panel/features/nodes/node-record';
import type { Log as AppLog } from '@aerie/panel/logging/log';
import { findNodeById, listNodeRecords } from './servers.repository';

type Log = Pick<AppLog, 'warn'>;

/**
 * Taking access away ends it at once: the panel tells the daemons, which refuse the user's websocket tokens and
 * signed file URLs issued until now and close their open console sockets (wings.md §10, `ws/deny`).
 *
 * Best effort by design. The change that takes access away (a new password, a reset) has already happened and
 * must not fail because a node is down; every node is told in parallel, within the client's short time-out,
 * and a node that cannot be told is logged. Tokens still expire on their own (websocket 10 minutes, signed URLs
 * 15), and a daemon that restarts refuses every token issued before it started.
 */
export class AccessRevocation {
  constructor(private readonly deps: { db: Db; daemon: DaemonClient; log: Log }) {}

  /**
   * Every node: the user's tokens and signed URLs for every server (`POST /api/deny`). For a password change or
   * reset, and an account deletion once there is one.
   */
  async revokeUserEverywhere(user: { uuid: string }): Promise<void> {
    let nodes: NodeRecord[];
    try {
      nodes = await listNodeRecords(this.deps.db);
    } catch (error) {
      this.deps.log.warn({ err: error }, `Could not list the nodes to revoke user ${user.uuid}'s access`);
      return;
    }
    await Promise.all(
      nodes.map((node) =>
        this.#tell(node, `user ${user.uuid}`, () => this.deps.daemon.denyUsers(node, [user.uuid])),
      ),
    );
  }

  /**
   * One server: the user's tokens and signed URLs for it (`POST /api/servers/{uuid}/ws/deny`, by user and by the
   * jti Wings knows). For removing a subuser or changing their permissions: after a change the user asks for a new
   * websocket token, which carries the permissions they have now.
   * @returns whether the node was told (the activity log notes a revocation that did not reach it)
   */
  async revokeUserOnServer(input: {
    server: { uuid: string; nodeId: number };
    user: { id: number; uuid: string };
  }): Promise<boolean> {
    const { server, user } = input;
    const node = await findNodeById(this.deps.db, server.nodeId).catch((error: unknown) => {
      this.deps.log.warn({ err: error }, `Could not find the node of server ${server.uuid}`);
      return undefined;
    });
    if (!node) return false;
    return this.#tell(node, `user ${user.uuid} on server ${server.uuid}`, () =>
      this.deps.daemon.forServer(node, server.uuid).deny({
        jtis: [daemonJti(user.id, server.uuid)],
        user_uuids: [user.uuid],
      }),
    );
  }

  async #tell(node: { name: string }, what: string, call: () => Promise<void>): Promise<boolean> {
    try {
      await call();
      return true;
    } catch (error) {
      this.deps.log.warn(
        { err: error },
        `Node "${node.name}" was not told to revoke ${what}: its live sockets and signed URLs stay valid until they expire`,
      );
      return false;
    }
  }
}

import type { DaemonClient } from '@aerie/panel/daemon-client/daemon-client';
import type { NodeRecord } from '@aerie/panel/features/nodes/node-record';
import type { Log } from '@aerie/panel/logging/log';

/**
 * Has the server's daemon read its configuration again after a change a user made (name, variables, image,
 * allocations). The change is already saved and the daemon reads the configuration before every start anyway, so
 * a daemon that cannot be told is logged, never an error for the user.
 */
export async function syncServerQuietly(
  deps: { daemon: DaemonClient; log: Log },
  node: NodeRecord,
  uuid: string,
): Promise<void> {
  try {
    await deps.daemon.forServer(node, uuid).sync();
  } catch (error) {
    deps.log.warn({ err: error }, `Could not tell the daemon of server ${uuid} about its change`);
  }
}

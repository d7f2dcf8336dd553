import { join } from 'node:path';
import type { Config } from '@aerie/panel/config/load-config';
import type { SecretBox } from '@aerie/panel/crypto/secret-box';
import type { Db } from '@aerie/panel/db/database';
import { findNodeRowNamed, updateNode } from './nodes.repository';
import { addAllocations, createNode } from './nodes.service';

export const LOCAL_NODE_NAME = 'Local node';
export const LOCAL_NODE_IP = '127.0.0.1';

/** The node `aerie up` made and runs a daemon for (found by its name and address, as ensureLocalNode finds it). */
export const isLocalNode = (node: { name: string; fqdn: string }) =>
  node.name === LOCAL_NODE_NAME && node.fqdn === LOCAL_NODE_IP;

/**
 * The node of the daemon `aerie up` runs next to the panel: created once with a fresh token (kept on later
 * boots), its ports following DAEMON_PORT / DAEMON_SFTP_PORT, and the DEMO_PORT_RANGE ports on 127.0.0.1.
 * It is found again by its name and address.
 */
export async function ensureLocalNode(db: Db, secretBox: SecretBox, config: Config, now = new Date()) {
  // Where its daemon keeps the volumes (DAEMON_DATA_DIR/volumes): an absolute path, as the node form requires.
  const daemonBase = join(config.dataDir, 'daemon', 'volumes');
  let node = await findNodeRowNamed(db, LOCAL_NODE_NAME, LOCAL_NODE_IP);
  if (!node) {
    node = await createNode(
      db,
      secretBox,
      {
        name: LOCAL_NODE_NAME,
        description: 'The daemon started by aerie up on this machine.',
        fqdn: LOCAL_NODE_IP,
        scheme: 'http',
        daemonListen: config.daemon.port,
        daemonSftp: config.daemon.sftpPort,
        daemonBase,
      },
      now,
    );
  } else if (
    node.daemon_listen !== config.daemon.port ||
    node.daemon_sftp !== config.daemon.sftpPort ||
    node.daemon_base !== daemonBase
  ) {
    // Also mends the relative `volumes` earlier versions stored, which made saving the node unchanged fail.
    const changes = {
      daemon_listen: config.daemon.port,
      daemon_sftp: config.daemon.sftpPort,
      daemon_base: daemonBase,
    };
    await updateNode(db, node.id, { ...changes, updated_at: now });
    node = { ...node, ...changes };
  }
  const { from, to } = config.demoPortRange;
  const ports = Array.from({ length: to - from + 1 }, (_, i) => from + i);
  await addAllocations(db, node.id, LOCAL_NODE_IP, ports, now);
  return node;
}

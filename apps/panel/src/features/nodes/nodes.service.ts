import { randomUUID } from 'node:crypto';
import type { SecretBox } from '@aerie/panel/crypto/secret-box';
import { randomAlphanumeric } from '@aerie/panel/crypto/tokens';
import type { Db } from '@aerie/panel/db/database';
import { ensureLocalLocation } from '@aerie/panel/features/locations/local-location';
import { insertAllocations, portsOnAddress } from './allocations.repository';
import { findNodeRow, insertNode, type NodeRow } from './nodes.repository';

export type { NodeRow } from './nodes.repository';

export interface NewNode {
  name: string;
  fqdn: string;
  scheme: 'http' | 'https';
  daemonListen: number;
  daemonSftp: number;
  memory?: number;
  disk?: number;
  daemonBase?: string;
  description?: string | null;
  /** The node's location; the `local` location (made when missing) by default. */
  locationId?: number;
  public?: boolean;
}

/** Token id (16 characters, stored in clear) and token (64 characters, sealed) the daemon authenticates with. */
export const newDaemonToken = () => ({ id: randomAlphanumeric(16), token: randomAlphanumeric(64) });

/** Registers a node with a fresh daemon token. */
export async function createNode(db: Db, secretBox: SecretBox, input: NewNode, now = new Date()) {
  const uuid = randomUUID();
  const token = newDaemonToken();
  const locationId = input.locationId ?? (await ensureLocalLocation(db, now));
  const id = await insertNode(db, {
    uuid,
    name: input.name,
    description: input.description ?? null,
    fqdn: input.fqdn,
    scheme: input.scheme,
    behind_proxy: false,
    maintenance_mode: false,
    memory: input.memory ?? 8192,
    disk: input.disk ?? 102_400,
    daemon_listen: input.daemonListen,
    daemon_sftp: input.daemonSftp,
    daemon_base: input.daemonBase ?? 'volumes',
    daemon_token_id: token.id,
    daemon_token: secretBox.seal(token.token),
    location_id: locationId,
    public: input.public ?? true,
    created_at: now,
    updated_at: now,
  });
  const row = await findNodeRow(db, id);
  if (!row) throw new Error(`Node ${id} is gone right after its insert`);
  return row;
}

/** The node's plain daemon token: the secret of the bearer token and the HS256 key of its JWTs. */
export const openDaemonToken = (secretBox: SecretBox, node: Pick<NodeRow, 'daemon_token'>) =>
  secretBox.open(node.daemon_token);

/** `<scheme>://<fqdn>:<daemon_listen>`: where the panel reaches the daemon, and the `aud` of its JWTs. */
export const daemonAddress = (node: Pick<NodeRow, 'scheme' | 'fqdn' | 'daemon_listen'>) =>
  `${node.scheme}://${node.fqdn}:${node.daemon_listen}`;

/** daemonAddress of a node as the server code holds it (camelCase record). */
export const nodeAddress = (node: { scheme: string; fqdn: string; daemonListen: number }) =>
  daemonAddress({ scheme: node.scheme, fqdn: node.fqdn, daemon_listen: node.daemonListen });

/** `<ws|wss>://<fqdn>:<daemon_listen>`: where a browser opens a node's console websockets. */
export const daemonSocketOrigin = (node: { scheme: string; fqdn: string; daemonListen: number }) =>
  `${node.scheme === 'https' ? 'wss' : 'ws'}://${node.fqdn}:${node.daemonListen}`;

/** Adds the ports of `ip` that the node does not have yet; returns how many were added. */
export async function addAllocations(
  db: Db,
  nodeId: number,
  ip: string,
  ports: number[],
  now = new Date(),
): Promise<number> {
  const taken = new Set(await portsOnAddress(db, nodeId, ip));
  const fresh = [...new Set(ports)].filter((port) => !taken.has(port));
  if (fresh.length === 0) return 0;
  await insertAllocations(
    db,
    nodeId,
    fresh.map((port) => ({ ip, port })),
    null,
    now,
  );
  return fresh.length;
}

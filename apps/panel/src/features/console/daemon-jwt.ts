import { createHash } from 'node:crypto';
import { randomAlphanumeric } from '@aerie/panel/crypto/tokens';
import type { NodeRecord } from '@aerie/panel/features/nodes/node-record';
import { nodeAddress } from '@aerie/panel/features/nodes/nodes.service';
import type { BACKUP_DOWNLOAD_PURPOSE } from '@aerie/shared/backups/backups-daemon-wire';
import type { FILE_DOWNLOAD_PURPOSE, FILE_UPLOAD_PURPOSE } from '@aerie/shared/files/file-wire';
import { SignJWT } from 'jose';

/** What a token opens on the daemon; the daemon refuses a token anywhere else (wings.md §6.8 advisory). */
export type DaemonJwtPurpose =
  | 'websocket'
  | typeof FILE_DOWNLOAD_PURPOSE
  | typeof FILE_UPLOAD_PURPOSE
  | typeof BACKUP_DOWNLOAD_PURPOSE;

/** `nbf` is set 5 minutes back to absorb clock drift between the panel and its nodes. */
const NOT_BEFORE_SKEW_S = 300;

export interface DaemonJwtInput {
  node: Pick<NodeRecord, 'scheme' | 'fqdn' | 'daemonListen'>;
  /** The node's plain token: its bytes are the HS256 key. */
  nodeToken: string;
  user: { id: number; uuid: string };
  serverUuid: string;
  /** The panel's APP_URL. */
  issuer: string;
  now: Date;
  ttlSeconds: number;
  purpose: DaemonJwtPurpose;
  /** Claims of this kind of token (`permissions`, `file_path`…). */
  claims?: Record<string, unknown>;
}

/** `jti` of every token of one user for one server: md5(user id . server uuid), as Pterodactyl makes it. */
export const daemonJti = (userId: number, serverUuid: string) =>
  createHash('md5').update(`${userId}${serverUuid}`).digest('hex');

/**
 * Every token the panel gives out for a node (pterodactyl-client-api.md §9.1): HS256 with the node token,
 * `iss` the panel, `aud` the node, integer-second `iat`/`nbf`/`exp`. `jti` is md5(user id . server uuid), also in
 * the header, so the daemon can deny one user's tokens for one server; `unique_id` makes every token distinct
 * (the daemon keeps single-use URLs single-use by it).
 */
export async function signDaemonJwt(input: DaemonJwtInput): Promise<string> {
  const iat = Math.floor(input.now.getTime() / 1000);
  const jti = daemonJti(input.user.id, input.serverUuid);
  return new SignJWT({
    user_uuid: input.user.uuid,
    user_id: input.user.id,
    unique_id: randomAlphanumeric(16),
    server_uuid: input.serverUuid,
    ...input.claims,
    purpose: input.purpose,
  })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT', jti })
    .setIssuer(input.issuer)
    .setAudience(nodeAddress(input.node))
    .setJti(jti)
    .setIssuedAt(iat)
    .setNotBefore(iat - NOT_BEFORE_SKEW_S)
    .setExpirationTime(iat + input.ttlSeconds)
    .sign(new TextEncoder().encode(input.nodeToken));
}

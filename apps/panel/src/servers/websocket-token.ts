import { createHash } from 'node:crypto';
import { SignJWT } from 'jose';
import { randomAlphanumeric } from '../crypto/tokens';
import { daemonAddress } from '../nodes/nodes.service';
import type { NodeRecord, ServerRecord } from './server-record';

/** Websocket tokens live 10 minutes; `nbf` is set 5 minutes back to absorb clock drift between machines. */
export const WEBSOCKET_TOKEN_TTL_S = 600;
const NOT_BEFORE_SKEW_S = 300;

/**
 * The console websocket credentials (§9.1): an HS256 JWT signed with the node's plain token, and the socket
 * address. `jti` is md5(user id . server uuid), so the daemon can deny a user's tokens for one server;
 * `purpose` stops the daemon accepting this token anywhere but the websocket.
 */
export async function websocketCredentials(input: {
  server: Pick<ServerRecord, 'uuid'>;
  node: NodeRecord;
  nodeToken: string;
  user: { id: number; uuid: string };
  permissions: readonly string[];
  issuer: string;
  now: Date;
}): Promise<{ token: string; socket: string }> {
  const { server, node, user } = input;
  const address = daemonAddress({ scheme: node.scheme, fqdn: node.fqdn, daemon_listen: node.daemonListen });
  const iat = Math.floor(input.now.getTime() / 1000);
  const jti = createHash('md5').update(`${user.id}${server.uuid}`).digest('hex');
  const token = await new SignJWT({
    user_uuid: user.uuid,
    user_id: user.id,
    unique_id: randomAlphanumeric(16),
    server_uuid: server.uuid,
    permissions: [...input.permissions],
    purpose: 'websocket',
  })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT', jti })
    .setIssuer(input.issuer)
    .setAudience(address)
    .setJti(jti)
    .setIssuedAt(iat)
    .setNotBefore(iat - NOT_BEFORE_SKEW_S)
    .setExpirationTime(iat + WEBSOCKET_TOKEN_TTL_S)
    .sign(new TextEncoder().encode(input.nodeToken));
  const socketScheme = node.scheme === 'https' ? 'wss' : 'ws';
  return {
    token,
    socket: `${socketScheme}://${node.fqdn}:${node.daemonListen}/api/servers/${server.uuid}/ws`,
  };
}

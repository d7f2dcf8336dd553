import type { NodeRecord } from '@aerie/panel/features/nodes/node-record';
import { daemonSocketOrigin } from '@aerie/panel/features/nodes/nodes.service';
import type { ServerRecord } from '@aerie/panel/features/servers/server-record';
import { signDaemonJwt } from './daemon-jwt';

/** Websocket tokens live 10 minutes. */
export const WEBSOCKET_TOKEN_TTL_S = 600;

/**
 * The console websocket credentials (§9.1): a `websocket` token carrying the caller's effective permissions,
 * and the socket address.
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
  const { server, node } = input;
  const token = await signDaemonJwt({
    node,
    nodeToken: input.nodeToken,
    user: input.user,
    serverUuid: server.uuid,
    issuer: input.issuer,
    now: input.now,
    ttlSeconds: WEBSOCKET_TOKEN_TTL_S,
    purpose: 'websocket',
    claims: { permissions: [...input.permissions] },
  });
  return { token, socket: `${daemonSocketOrigin(node)}/api/servers/${server.uuid}/ws` };
}

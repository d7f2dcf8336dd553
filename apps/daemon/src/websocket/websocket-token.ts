import { type DaemonJwtClaims, isExpired } from '@aerie/daemon/auth/daemon-jwt';
import type { JwtDenylist } from '@aerie/daemon/auth/jwt-denylist';
import { JwtError } from '@aerie/daemon/auth/jwt-errors';
import { DAEMON_PERMISSIONS, hasPermission } from '@aerie/daemon/auth/permissions';

/**
 * Why a websocket token no longer holds for this socket, or undefined while it does. Checked at auth and again on
 * every message in and out (as Wings does), so expiry, a deny from the panel or a token of another server stop a
 * socket at once.
 */
export function websocketTokenProblem(
  claims: DaemonJwtClaims | undefined,
  context: { serverUuid: string; denylist: JwtDenylist; now?: () => number },
): JwtError | undefined {
  if (!claims) return new JwtError('notPresent');
  if (isExpired(claims, context.now)) return new JwtError('expired');
  if (context.denylist.isDenied(claims)) return new JwtError('denylisted');
  if (!hasPermission(claims.permissions, DAEMON_PERMISSIONS.connect))
    return new JwtError('noConnectPermission');
  if (claims.server_uuid !== context.serverUuid) return new JwtError('serverMismatch');
  return undefined;
}

import type { DaemonJwtClaims, JwtPurpose } from '@aerie/daemon/auth/daemon-jwt';
import { verifyDaemonJwt } from '@aerie/daemon/auth/daemon-jwt';
import type { JwtDenylist } from '@aerie/daemon/auth/jwt-denylist';
import { JWT_ERROR_MESSAGES } from '@aerie/daemon/auth/jwt-errors';
import type { UsedTokenStore } from '@aerie/daemon/auth/used-token-store';
import type { ManagedServer } from '@aerie/daemon/server/managed-server';
import type { ServerManager } from '@aerie/daemon/server/server-manager';
import { serverMessages } from '@aerie/shared/servers/server-messages';
import { HttpError, NOT_FOUND_MESSAGE } from './http-errors';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const TOKEN_USED_MESSAGE = 'jwt: this link has already been used, request a new one';

export interface SignedFileAccess {
  claims: DaemonJwtClaims & { unique_id: string };
  server: ManagedServer;
}

/**
 * A signed file URL's token, checked the way the routes need it: signature with the node token, exp/nbf/iat,
 * the purpose (a websocket token, or one for the other file route, opens nothing: GHSA-8r6w-3qq5-4p4r), a
 * `unique_id`, the denylist (issued before the daemon started, or at or before a deny of its jti or user), a
 * server on this node that is not suspended, and one-time use (claimed last, so a refused request spends nothing).
 * @throws HttpError 403 with the JWT text for a bad, denied or used token; 404 for a server not on this node;
 *   409 with the panel's text for a suspended server
 */
export async function authoriseSignedFile(
  token: string | undefined,
  options: SignedTokenOptions,
): Promise<SignedFileAccess> {
  const access = await authoriseSignedToken(token, options, false);
  if (!access.server) throw new HttpError(404, NOT_FOUND_MESSAGE);
  return { claims: access.claims, server: access.server };
}

/**
 * A signed backup download's token: as authoriseSignedFile, except that the server need not be on this node any
 * more. Local backups stay on the node that made them when their server moves to another; its denylist still
 * applies, and while the server is here, its suspension too.
 */
export function authoriseSignedBackup(
  token: string | undefined,
  options: Omit<SignedTokenOptions, 'purpose'>,
): Promise<{ claims: SignedFileAccess['claims']; server: ManagedServer | undefined }> {
  return authoriseSignedToken(token, { ...options, purpose: 'backup_download' }, true);
}

interface SignedTokenOptions {
  purpose: JwtPurpose;
  nodeToken: string;
  manager: ServerManager;
  usedTokens: UsedTokenStore;
  denylist: JwtDenylist;
}

async function authoriseSignedToken(
  token: string | undefined,
  options: SignedTokenOptions,
  serverMayHaveLeft: boolean,
): Promise<{ claims: SignedFileAccess['claims']; server: ManagedServer | undefined }> {
  const result = await verifyDaemonJwt(token ?? '', {
    nodeToken: options.nodeToken,
    purpose: options.purpose,
  });
  if (!result.ok) throw new HttpError(403, result.error.message);
  const { claims } = result;
  const unique = claims.unique_id;
  const fileMissing = options.purpose === 'file_download' && !claims.file_path;
  // The backup's uuid becomes a file name: nothing but a uuid is accepted.
  const backupMissing = options.purpose === 'backup_download' && !UUID.test(claims.backup_uuid ?? '');
  if (unique === undefined || unique === '' || fileMissing || backupMissing)
    throw new HttpError(403, JWT_ERROR_MESSAGES.claims);
  const server = options.manager.get(claims.server_uuid);
  if (!server && !serverMayHaveLeft) throw new HttpError(404, NOT_FOUND_MESSAGE);
  if (server) assertNotRevoked(claims, server, options.denylist);
  else if (options.denylist.isDenied(claims)) throw new HttpError(403, JWT_ERROR_MESSAGES.denylisted);
  if (!(await options.usedTokens.claim(unique, claims.exp))) throw new HttpError(403, TOKEN_USED_MESSAGE);
  return { claims: { ...claims, unique_id: unique }, server };
}

/**
 * Refuses a signed URL whose access was taken away: its token denied by the panel (jti or user) or its server
 * suspended. Checked before the URL is used and again before an upload writes what it received.
 * @throws HttpError 403 with the denylist's JWT text; 409 with the panel's text for a suspended server
 */
export function assertNotRevoked(
  claims: DaemonJwtClaims,
  server: Pick<ManagedServer, 'isSuspended'>,
  denylist: JwtDenylist,
): void {
  if (denylist.isDenied(claims)) throw new HttpError(403, JWT_ERROR_MESSAGES.denylisted);
  if (server.isSuspended) throw new HttpError(409, serverMessages.suspended);
}

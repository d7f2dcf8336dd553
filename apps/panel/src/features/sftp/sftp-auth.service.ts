import type { Db } from '@aerie/panel/db/database';
import { FailureThrottle } from '@aerie/panel/features/auth/failure-throttle';
import { verifyPassword } from '@aerie/panel/features/auth/password-hash';
import { throttleAddress } from '@aerie/panel/features/auth/password-recheck';
import { daemonJti } from '@aerie/panel/features/console/daemon-jwt';
import type { NodeRecord } from '@aerie/panel/features/nodes/node-record';
import { effectivePermissions, serverStateConflict } from '@aerie/panel/features/servers/server-access';
import {
  subuserPermissionsOf,
  transferringServerIds,
} from '@aerie/panel/features/servers/servers.repository';
import { parseSshPublicKey } from '@aerie/panel/features/ssh-keys/ssh-public-key';
import { badRequest, HttpError } from '@aerie/panel/http/errors';
import type { SharedStore } from '@aerie/panel/shared-store/shared-store';
import { hasPermission } from '@aerie/shared/permissions/can';
import {
  type SftpAuthAnswer,
  sftpAuthLimits,
  sftpAuthMessages,
  splitSftpUsername,
} from '@aerie/shared/sftp/sftp-wire';
import { findNodeServerByIdentifier, findUserByUsername } from './sftp-auth.repository';

export interface SftpLoginAttempt {
  type: 'password' | 'public_key';
  /** `{panel username}.{server identifier}`. */
  username: string;
  /** The password, or the public key in authorized_keys form. */
  password: string;
  /** The SFTP client's address as the daemon saw it (else the daemon's own). */
  ip: string;
}

/** Failed SFTP logins from one client address, all usernames together, per minute (as the sign-in's ceiling). */
export const SFTP_ADDRESS_FAILURES = 50;

const forbidden = (detail: string) => new HttpError(403, 'HttpForbiddenException', detail);
const invalidCredentials = () => forbidden(sftpAuthMessages.invalidCredentials);

/**
 * Decides an SFTP login a daemon asks about (`POST /api/remote/sftp/auth`, reference/wings.md §8): the user by
 * username, the server by uuid or identifier among the calling node's own, the password (argon2, a dummy hash for
 * an unknown user so both failures take as long) or a key of the user's account, then the access: owner, root
 * admin, or subuser holding `file.sftp`, and a server in a usable state.
 *
 * Unknown user, unknown server, wrong password and unknown key all answer the same 403. Failed passwords (and
 * unreadable keys) are counted per panel username and client address (past 5 a minute that username from that
 * address gets 429 before anything is looked at) and per client address for all usernames (past 50 a minute, the
 * ceiling of the sign-in throttle, that address gets 429): someone guessing one user's password never keeps
 * another user, or the same user from elsewhere, out. Counted in the shared store (Redis with REDIS_URL). A key the user does not hold is not counted, as upstream: SSH clients offer every
 * key they have, one after the other, and guessing a public key gains nothing without its private half (the
 * daemon verifies the signature).
 */
export class SftpAuthService {
  readonly #throttle: FailureThrottle;
  readonly #addressCeiling: FailureThrottle;

  constructor(
    private readonly deps: {
      db: Db;
      sshKeys: { owns(userId: number, fingerprint: string): Promise<boolean> };
      store: SharedStore;
    },
  ) {
    const refusal = (seconds: number) =>
      new HttpError(429, 'TooManyRequestsHttpException', sftpAuthMessages.tooManyAttempts(seconds), {
        headers: { 'retry-after': String(seconds) },
      });
    this.#throttle = new FailureThrottle(deps.store, {
      name: 'sftp-login',
      attempts: sftpAuthLimits.attempts,
      windowSeconds: sftpAuthLimits.windowSeconds,
      refusal,
    });
    this.#addressCeiling = new FailureThrottle(deps.store, {
      name: 'sftp-login-address',
      attempts: SFTP_ADDRESS_FAILURES,
      windowSeconds: sftpAuthLimits.windowSeconds,
      refusal,
    });
  }

  /**
   * @throws HttpError 400 without a server identifier; 429 throttled; 403 bad credentials or no `file.sftp`; 409
   *   the server's state (suspended, node in maintenance, installing, restoring, transferring)
   */
  async authenticate(node: NodeRecord, attempt: SftpLoginAttempt): Promise<SftpAuthAnswer> {
    const { db } = this.deps;
    const parts = splitSftpUsername(attempt.username);
    if (!parts) throw badRequest(sftpAuthMessages.noServer);
    const address = throttleAddress(attempt.ip);
    const throttleKey = `${parts.user.toLowerCase()}|${address}`;
    await this.#addressCeiling.assertNotLocked([address]);
    await this.#throttle.assertNotLocked([throttleKey]);

    const [user, server] = await Promise.all([
      findUserByUsername(db, parts.user),
      findNodeServerByIdentifier(db, node.id, parts.server),
    ]);
    let valid: boolean;
    let counts = true;
    if (attempt.type === 'public_key') {
      const key = parseSshPublicKey(attempt.password);
      counts = typeof key === 'string';
      // Looked up for an unknown user too (as no one's), so the answer takes as long either way.
      const owned = typeof key !== 'string' && (await this.deps.sshKeys.owns(user?.id ?? 0, key.fingerprint));
      valid = owned && user !== null;
    } else {
      valid = await verifyPassword(user?.passwordHash ?? null, attempt.password);
    }
    if (!user || !server || !valid) {
      if (counts)
        await Promise.all([
          this.#throttle.recordFailure([throttleKey]),
          this.#addressCeiling.recordFailure([address]),
        ]);
      throw invalidCredentials();
    }

    const isOwner = server.ownerId === user.id;
    const stored =
      isOwner || user.rootAdmin
        ? undefined
        : (await subuserPermissionsOf(db, user.id, [server.id])).get(server.id);
    const permissions = effectivePermissions(user, server, stored);
    if (!user.rootAdmin && !isOwner && !hasPermission(permissions, 'file.sftp')) {
      throw forbidden(sftpAuthMessages.noSftpPermission);
    }
    const transferring = (await transferringServerIds(db, [server.id])).has(server.id);
    const conflict = serverStateConflict({ server, node, isTransferring: transferring });
    if (conflict) throw conflict;

    await this.#throttle.clear(throttleKey);
    return { user: user.uuid, server: server.uuid, permissions, jti: daemonJti(user.id, server.uuid) };
  }
}

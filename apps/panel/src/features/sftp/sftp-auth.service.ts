import type { Db } from '@aerie/panel/db/database';
import { verifyPassword } from '@aerie/panel/features/auth/password-hash';
import {
  type SignInThrottle,
  type SignInWait,
  signInAccount,
} from '@aerie/panel/features/auth/sign-in-throttle';
import { daemonJti } from '@aerie/panel/features/console/daemon-jwt';
import type { NodeRecord } from '@aerie/panel/features/nodes/node-record';
import { effectivePermissions, serverStateConflict } from '@aerie/panel/features/servers/server-access';
import {
  subuserPermissionsOf,
  transferringServerIds,
} from '@aerie/panel/features/servers/servers.repository';
import { parseSshPublicKey } from '@aerie/panel/features/ssh-keys/ssh-public-key';
import { findUserByUsername } from '@aerie/panel/features/users/user-lookups';
import { badRequest, HttpError } from '@aerie/panel/http/errors';
import { hasPermission } from '@aerie/shared/permissions/can';
import { type SftpAuthAnswer, sftpAuthMessages, splitSftpUsername } from '@aerie/shared/sftp/sftp-wire';
import { findNodeServerByIdentifier } from './sftp-auth.repository';

export interface SftpLoginAttempt {
  type: 'password' | 'public_key';
  /** `{panel username}.{server identifier}`. */
  username: string;
  /** The password, or the public key in authorized_keys form. */
  password: string;
  /** The SFTP client's address as the daemon saw it (else the daemon's own). */
  ip: string;
}

const forbidden = (detail: string) => new HttpError(403, 'HttpForbiddenException', detail);
const invalidCredentials = () => forbidden(sftpAuthMessages.invalidCredentials);

/** Upstream's SFTP throttle answer, with the sign-in throttle's wait. */
const tooManyAttempts = ({ seconds }: SignInWait) =>
  new HttpError(429, 'TooManyRequestsHttpException', sftpAuthMessages.tooManyAttempts(seconds), {
    headers: { 'retry-after': String(seconds) },
  });

/**
 * Decides an SFTP login a daemon asks about (`POST /api/remote/sftp/auth`, reference/wings.md §8): the user by
 * username, the server by uuid or identifier among the calling node's own, the password (argon2, a dummy hash for
 * an unknown user so both failures take as long) or a key of the user's account, then the access: owner, root
 * admin, or subuser holding `file.sftp`, and a server in a usable state.
 *
 * Unknown user, unknown server, wrong password and unknown key all answer the same 403. Failed passwords (and
 * unreadable keys) go to the web sign-in's throttle (`SignInThrottle`, the same counts): 5 a minute per account
 * and client address, 50 a minute per client address for all accounts, and past 10 failures against one account
 * from anywhere in 15 minutes, a wait of 5 s doubling to 60 s after each further failure, for every client address
 * the account never got in from (by a web sign-in or an SFTP login); answered 429 even for the right password. So
 * guesses spread over many addresses no longer each get their own count, and the owner still gets in from where
 * they did before. A key the user does not hold is not counted, as upstream: SSH clients offer every key they
 * have, one after the other, and guessing a public key gains nothing without its private half (the daemon
 * verifies the signature).
 */
export class SftpAuthService {
  constructor(
    private readonly deps: {
      db: Db;
      sshKeys: { owns(userId: number, fingerprint: string): Promise<boolean> };
      throttle: SignInThrottle;
    },
  ) {}

  /**
   * @throws HttpError 400 without a server identifier; 429 throttled; 403 bad credentials or no `file.sftp`; 409
   *   the server's state (suspended, node in maintenance, installing, restoring, transferring)
   */
  async authenticate(node: NodeRecord, attempt: SftpLoginAttempt): Promise<SftpAuthAnswer> {
    const { db, throttle } = this.deps;
    const { ip } = attempt;
    const parts = splitSftpUsername(attempt.username);
    if (!parts) throw badRequest(sftpAuthMessages.noServer);
    const overCeiling = await throttle.addressWait(ip);
    if (overCeiling) throw tooManyAttempts(overCeiling);

    const [user, server] = await Promise.all([
      findUserByUsername(db, parts.user),
      findNodeServerByIdentifier(db, node.id, parts.server),
    ]);
    // Unknown users are counted by the name given, and go through the same steps (the known-address query too).
    const account = signInAccount(user?.id, parts.user);
    const admission = await throttle.admit(ip, account, 'sftp');
    if (!admission.admitted) throw tooManyAttempts(admission.wait);
    const { attempt: guess } = admission;

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
      await (counts ? throttle.recordFailure(guess) : throttle.release(guess));
      throw invalidCredentials();
    }
    await throttle.succeeded(guess);

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

    await throttle.signedIn(ip, user.id, 'sftp');
    return { user: user.uuid, server: server.uuid, permissions, jti: daemonJti(user.id, server.uuid) };
  }
}

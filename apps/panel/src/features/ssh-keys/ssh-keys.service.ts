import type { Db } from '@aerie/panel/db/database';
import { type ActivityLog, accountActivity } from '@aerie/panel/features/activity/activity-log';
import type { User } from '@aerie/panel/features/users/user';
import { lockUserRow } from '@aerie/panel/features/users/user-writes';
import { validationFailed } from '@aerie/panel/http/errors';
import type { RequestOrigin } from '@aerie/panel/http/request-origin';
import { sshKeyMessages } from '@aerie/shared/ssh-keys/ssh-keys-wire';
import type { SshKey } from './ssh-key';
import { hasKey, insertKey, listKeys, softDeleteKeys } from './ssh-keys.repository';
import { parseSshPublicKey, type SshPublicKeyProblem } from './ssh-public-key';

const PROBLEM_MESSAGES: Record<SshPublicKeyProblem, string> = {
  invalid: sshKeyMessages.invalid,
  dsa: sshKeyMessages.dsa,
  'weak-rsa': sshKeyMessages.weakRsa,
};

/** A 422 on `public_key` with one of the reference's texts (a check after the rules: no rule name). */
const publicKeyRefused = (detail: string) =>
  validationFailed([
    { code: 'ValidationException', status: '422', detail, meta: { source_field: 'public_key', rule: '' } },
  ]);

/** The signed-in user's SSH keys (`/api/client/account/ssh-keys`), what SFTP logins by key are checked against. */
export class SshKeyService {
  constructor(private readonly deps: { db: Db; clock: () => Date; activity: ActivityLog }) {}

  list(user: User): Promise<SshKey[]> {
    return listKeys(this.deps.db, user.id);
  }

  /**
   * Adds a key, stored as PKCS#8 PEM with its SHA-256 fingerprint. The duplicate check and the insert run under a
   * lock on the user's row, so two requests cannot add the same key together.
   * @throws HttpError 422 ValidationException on `public_key`: not a public key (a private one included), DSA, RSA
   *   under 2048 bits, or already on the account
   */
  async create(
    user: User,
    input: { name: string; publicKey: string },
    origin: RequestOrigin,
  ): Promise<SshKey> {
    const parsed = parseSshPublicKey(input.publicKey);
    if (typeof parsed === 'string') throw publicKeyRefused(PROBLEM_MESSAGES[parsed]);
    return this.deps.db.transaction().execute(async (tx) => {
      await lockUserRow(tx, user.id);
      if (await hasKey(tx, user.id, parsed.fingerprint)) throw publicKeyRefused(sshKeyMessages.duplicate);
      const key = await insertKey(
        tx,
        { userId: user.id, name: input.name, fingerprint: parsed.fingerprint, publicKey: parsed.pem },
        this.deps.clock(),
      );
      await this.deps.activity.record(tx, {
        event: 'user:ssh-key.create',
        ...accountActivity(user, origin),
        properties: { fingerprint: key.fingerprint },
      });
      return key;
    });
  }

  /**
   * Removes the user's key with this fingerprint (soft delete); nothing to remove is no error. It stops new logins
   * with the key; a session already logged in with it ends with its connection, or at once on a password change.
   */
  async remove(user: User, fingerprint: string, origin: RequestOrigin): Promise<void> {
    await this.deps.db.transaction().execute(async (tx) => {
      // Only a key that was there is logged, as upstream does.
      if ((await softDeleteKeys(tx, user.id, fingerprint, this.deps.clock())) === 0) return;
      await this.deps.activity.record(tx, {
        event: 'user:ssh-key.delete',
        ...accountActivity(user, origin),
        properties: { fingerprint },
      });
    });
  }

  /** Whether the user may log in with the key of this fingerprint (SFTP). */
  owns(userId: number, fingerprint: string): Promise<boolean> {
    return hasKey(this.deps.db, userId, fingerprint);
  }
}

import type { Db } from '@aerie/panel/db/database';
import { isUniqueViolation } from '@aerie/panel/db/dialect';
import { type ActivityLog, accountActivity } from '@aerie/panel/features/activity/activity-log';
import { hashPassword } from '@aerie/panel/features/auth/password-hash';
import type { PasswordRecheck } from '@aerie/panel/features/auth/password-recheck';
import type { Sessions } from '@aerie/panel/features/auth/session/sessions';
import type { AccessRevocation } from '@aerie/panel/features/servers/access-revocation';
import type { User } from '@aerie/panel/features/users/user';
import { emailTakenByOther, normaliseLogin } from '@aerie/panel/features/users/user-lookups';
import { updateEmail, updateLanguage, updatePasswordHash } from '@aerie/panel/features/users/user-writes';
import { HttpError, validationFailed } from '@aerie/panel/http/errors';
import type { RequestOrigin } from '@aerie/panel/http/request-origin';
import { accountErrorMessages } from '@aerie/shared/account/account-wire';
import { laravelMessages } from '@aerie/shared/validation/laravel-messages';

const emailTaken = () =>
  validationFailed([
    {
      code: 'ValidationException',
      status: '422',
      detail: laravelMessages.unique('email'),
      meta: { source_field: 'email', rule: 'unique' },
    },
  ]);

/** The signed-in user's own email and password (PUT /api/client/account/email, …/password). */
export class AccountService {
  constructor(
    private readonly deps: {
      db: Db;
      sessions: Sessions;
      recheck: PasswordRecheck;
      revocation: AccessRevocation;
      clock: () => Date;
      activity: ActivityLog;
    },
  ) {}

  /**
   * The check that authorises a change, made before the body is validated (as Pterodactyl's form requests do).
   * Anything but the right password, a missing one included, fails the same way; failures are throttled per
   * account and address (PasswordRecheck).
   * @throws HttpError 429 TooManyRequestsHttpException after too many wrong passwords; 400
   *   InvalidPasswordProvidedException
   */
  async assertPassword(user: User, ip: string, password: unknown): Promise<void> {
    await this.deps.recheck.verify(
      user,
      ip,
      password,
      () => new HttpError(400, 'InvalidPasswordProvidedException', accountErrorMessages.invalidPassword),
    );
  }

  /**
   * Sets a new email address (stored lower-cased, like every login).
   *
   * Whether an address is taken: the reference (pterodactyl-client-api.md §4, `unique(users, except self)`)
   * answers Laravel's 422 "The email has already been taken." and API clients rely on it; the product spec words
   * no text of its own for it. So the answer stays, but only ever reaches someone who has just given this
   * account's password (the route checks it first), and each such answer counts against the same per-account
   * and address throttle as a wrong password: a few probes a minute, never a way to list accounts.
   * The change is logged on the account (`user:account.email-changed` {old, new}) in the same transaction.
   * @throws HttpError 422 (rule `unique`) when another account uses it
   */
  async changeEmail(user: User, origin: RequestOrigin, email: string): Promise<void> {
    const { db, clock } = this.deps;
    const normalised = normaliseLogin(email);
    const taken = async () => {
      await this.deps.recheck.recordProbe(user, origin.ip);
      return emailTaken();
    };
    if (await emailTakenByOther(db, normalised, user.id)) throw await taken();
    try {
      await db.transaction().execute(async (tx) => {
        await updateEmail(tx, user.id, normalised, clock());
        await this.deps.activity.record(tx, {
          event: 'user:account.email-changed',
          ...accountActivity(user, origin),
          properties: { old: user.email, new: normalised },
        });
      });
    } catch (error) {
      // Another request took the address between the check and the update.
      if (isUniqueViolation(error)) throw await taken();
      throw error;
    }
  }

  /** Sets the language of the user's pages and mail; no password asked, as for any display preference. */
  async changeLanguage(user: User, language: string): Promise<void> {
    await updateLanguage(this.deps.db, user.id, language, this.deps.clock());
  }

  /**
   * Sets a new password and ends every session of the user, the caller's included, and their live console
   * sockets and signed file URLs on every node (whoever knew the old password may hold some).
   */
  async changePassword(user: User, password: string, origin: RequestOrigin): Promise<void> {
    const passwordHash = await hashPassword(password);
    await this.deps.db.transaction().execute(async (tx) => {
      await updatePasswordHash(tx, user.id, passwordHash, this.deps.clock());
      await this.deps.activity.record(tx, {
        event: 'user:account.password-changed',
        ...accountActivity(user, origin),
      });
    });
    await this.deps.sessions.signOutEverywhere(user.id);
    await this.deps.revocation.revokeUserEverywhere(user);
  }
}

import { accountErrorMessages } from '@aerie/shared/account/account-wire';
import { laravelMessages } from '@aerie/shared/validation/laravel-messages';
import { hashPassword, verifyPassword } from '../auth/password-hash';
import type { Sessions } from '../auth/session/sessions';
import type { Db } from '../db/database';
import { isUniqueViolation } from '../db/dialect';
import { HttpError, validationFailed } from '../http/errors';
import type { User } from '../users/user';
import { normaliseLogin, updatePasswordHash } from '../users/users.repository';

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
  constructor(private readonly deps: { db: Db; sessions: Sessions; clock: () => Date }) {}

  /**
   * The check that authorises a change, made before the body is validated (as Pterodactyl's form requests do).
   * Anything but the right password, a missing one included, fails the same way.
   * @throws HttpError 400 InvalidPasswordProvidedException
   */
  async assertPassword(user: User, password: unknown): Promise<void> {
    const valid = typeof password === 'string' && (await verifyPassword(user.passwordHash, password));
    if (!valid) {
      throw new HttpError(400, 'InvalidPasswordProvidedException', accountErrorMessages.invalidPassword);
    }
  }

  /**
   * Sets a new email address (stored lower-cased, like every login).
   * @throws HttpError 422 (rule `unique`) when another account uses it
   */
  async changeEmail(user: User, email: string): Promise<void> {
    const { db, clock } = this.deps;
    const normalised = normaliseLogin(email);
    const other = await db
      .selectFrom('users')
      .select('id')
      .where('email', '=', normalised)
      .where('id', '!=', user.id)
      .executeTakeFirst();
    if (other) throw emailTaken();
    try {
      await db
        .updateTable('users')
        .set({ email: normalised, updated_at: clock() })
        .where('id', '=', user.id)
        .execute();
    } catch (error) {
      // Another request took the address between the check and the update.
      if (isUniqueViolation(error)) throw emailTaken();
      throw error;
    }
  }

  /** Sets a new password and ends every session of the user, the caller's included. */
  async changePassword(user: User, password: string): Promise<void> {
    await updatePasswordHash(this.deps.db, user.id, await hashPassword(password), this.deps.clock());
    await this.deps.sessions.signOutEverywhere(user.id);
  }
}

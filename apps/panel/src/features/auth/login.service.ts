import { randomAlphanumeric, sha256 } from '@aerie/panel/crypto/tokens';
import type { Db } from '@aerie/panel/db/database';
import type { SessionData } from '@aerie/panel/features/auth/session/session-data';
import type { User } from '@aerie/panel/features/users/user';
import { findUserByLogin } from '@aerie/panel/features/users/users.repository';
import { displayError } from '@aerie/panel/http/errors';
import { errorMessages } from '@aerie/shared/errors/error-envelope';
import { limits } from '@aerie/shared/limits';
import { accountKey, type LoginLockout } from './login-lockout';
import { verifyPassword } from './password-hash';

/** Checks credentials for POST /auth/login; the route decides between signing in and the 2FA checkpoint. */
export class LoginService {
  constructor(private readonly deps: { db: Db; lockout: LoginLockout; clock: () => Date }) {}

  /**
   * @returns the user whose username/email and password match
   * @throws HttpError 429 when the IP or the account is locked out; 400 DisplayException
   *   "No account matching those credentials could be found." for an unknown user and a wrong password alike
   */
  async authenticate(ip: string, login: string, password: string): Promise<User> {
    const { db, lockout } = this.deps;
    await lockout.assertNotLocked(ip);
    const user = await findUserByLogin(db, login);
    const account = accountKey(user?.id, login);
    await lockout.assertNotLocked(ip, account);
    // Unknown users are checked against a dummy hash, so both failures take the same time.
    const valid = await verifyPassword(user?.passwordHash ?? null, password);
    if (!user || !valid) {
      await lockout.recordFailure(ip, account);
      throw displayError(errorMessages.loginFailed);
    }
    await lockout.clearAccount(account);
    return user;
  }

  /**
   * Starts the 2FA step: a 64-character confirmation token for the browser, and what the session keeps of it
   * (its hash, the user and a 5-minute expiry).
   */
  checkpointFor(user: User): { confirmationToken: string; data: SessionData } {
    const confirmationToken = randomAlphanumeric(64);
    const expiresAt = this.deps.clock().getTime() + limits.checkpointTokenTtlMs;
    return {
      confirmationToken,
      data: { checkpoint: { userId: user.id, tokenHash: sha256(confirmationToken), expiresAt } },
    };
  }
}

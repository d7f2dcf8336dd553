import { randomAlphanumeric, sha256 } from '@aerie/panel/crypto/tokens';
import type { Db } from '@aerie/panel/db/database';
import { type ActivityLog, requestMetadata } from '@aerie/panel/features/activity/activity-log';
import type { SessionData } from '@aerie/panel/features/auth/session/session-data';
import type { User } from '@aerie/panel/features/users/user';
import { findUserByLogin } from '@aerie/panel/features/users/user-lookups';
import { displayError } from '@aerie/panel/http/errors';
import type { RequestOrigin } from '@aerie/panel/http/request-origin';
import { errorMessages } from '@aerie/shared/errors/error-envelope';
import { limits } from '@aerie/shared/limits';
import { verifyPassword } from './password-hash';
import { type SignInThrottle, signInAccount, signInLockout } from './sign-in-throttle';

/** Checks credentials for POST /auth/login; the route decides between signing in and the 2FA checkpoint. */
export class LoginService {
  constructor(
    private readonly deps: { db: Db; throttle: SignInThrottle; clock: () => Date; activity: ActivityLog },
  ) {}

  /**
   * @returns the user whose username/email and password match
   * @throws HttpError 429 "Too many login attempts. Please try again in N seconds." while the address, or the
   *   account from this address, is over its count, or the account is slowed down and this address never signed
   *   in to it (SignInThrottle; logged on a known account as `auth:throttled`, once a minute); 400 DisplayException
   *   "No account matching those credentials could be found." for an unknown user and a wrong password alike
   *   (a wrong password is logged on the account as `auth:fail`; an unknown name concerns no account and is not)
   */
  async authenticate(origin: RequestOrigin, login: string, password: string): Promise<User> {
    const { db, throttle } = this.deps;
    const { ip } = origin;
    await throttle.assertAddressAllowed(ip);
    const user = await findUserByLogin(db, login);
    const account = signInAccount(user?.id, login);
    // Upstream's `Failed` event keeps the credential as typed, under the field it was read as.
    const typed = { [login.includes('@') ? 'email' : 'username']: login };
    const admission = await throttle.admit(ip, account, 'web');
    if (!admission.admitted) {
      if (user && (await throttle.shouldLogRefusal(ip, account)))
        await this.#record('auth:throttled', null, user, origin, typed);
      throw signInLockout(admission.wait);
    }
    // Unknown users are checked against a dummy hash, so both failures take the same time.
    const valid = await verifyPassword(user?.passwordHash ?? null, password);
    if (!user || !valid) {
      await throttle.recordFailure(admission.attempt);
      if (user) await this.#record('auth:fail', null, user, origin, typed);
      throw displayError(errorMessages.loginFailed);
    }
    await throttle.succeeded(admission.attempt);
    return user;
  }

  /**
   * Starts the 2FA step: a 64-character confirmation token for the browser, and what the session keeps of it
   * (its hash, the user and a 5-minute expiry).
   */
  async checkpointFor(
    user: User,
    origin: RequestOrigin,
  ): Promise<{ confirmationToken: string; data: SessionData }> {
    const confirmationToken = randomAlphanumeric(64);
    const expiresAt = this.deps.clock().getTime() + limits.checkpointTokenTtlMs;
    await this.#record('auth:checkpoint', null, user, origin);
    return {
      confirmationToken,
      data: { checkpoint: { userId: user.id, tokenHash: sha256(confirmationToken), expiresAt } },
    };
  }

  /**
   * A completed sign-in (password alone, or after the 2FA step): logged on the account, by the user, and the
   * address remembered as one the account is never slowed down from.
   */
  async succeeded(user: User, origin: RequestOrigin): Promise<void> {
    await this.deps.throttle.signedIn(origin.ip, user.id);
    await this.#record('auth:success', user, user, origin);
  }

  async #record(
    event: 'auth:fail' | 'auth:throttled' | 'auth:checkpoint' | 'auth:success',
    actor: User | null,
    user: User,
    origin: RequestOrigin,
    properties: Record<string, unknown> = {},
  ): Promise<void> {
    await this.deps.activity.record(this.deps.db, {
      event,
      actor,
      subjects: { user },
      ip: origin.ip,
      isApi: false,
      properties: { ...requestMetadata(origin), ...properties },
    });
  }
}

import { loginLockout } from '@aerie/panel/http/errors';
import { limits } from '@aerie/shared/limits';
import { FailureThrottle } from './failure-throttle';

const ipKey = (ip: string) => `ip:${ip}`;
const accountCountKey = (account: string) => `account:${account}`;

/**
 * Failed sign-ins are counted per IP and per account, each on its own: five failures from one IP lock that IP
 * out, and five failures against one account lock that account out from every IP, for a minute. Never one
 * global bucket, so one noisy client cannot lock everybody out.
 */
export class LoginLockout {
  readonly #throttle = new FailureThrottle({
    name: 'login',
    attempts: limits.loginAttempts,
    windowSeconds: limits.loginLockoutWindowSeconds,
    refusal: loginLockout,
  });

  /** @throws HttpError 429 (ValidationException, "Too many login attempts…") when the IP or account is locked. */
  async assertNotLocked(ip: string, account?: string): Promise<void> {
    await this.#throttle.assertNotLocked(
      account === undefined ? [ipKey(ip)] : [ipKey(ip), accountCountKey(account)],
    );
  }

  async recordFailure(ip: string, account: string): Promise<void> {
    await this.#throttle.recordFailure([ipKey(ip), accountCountKey(account)]);
  }

  /** A successful sign-in clears the account's count (not the IP's: one good password must not reset it). */
  async clearAccount(account: string): Promise<void> {
    await this.#throttle.clear(accountCountKey(account));
  }
}

/** Known accounts are counted by id, so username and email attempts add up; unknown ones by the typed name. */
export const accountKey = (userId: number | undefined, login: string) =>
  userId === undefined ? `name:${login.trim().toLowerCase()}` : `user:${userId}`;

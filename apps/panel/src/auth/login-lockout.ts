import { limits } from '@aerie/shared/limits';
import { RateLimiterMemory, type RateLimiterRes } from 'rate-limiter-flexible';
import { loginLockout } from '../http/errors';

/**
 * Failed sign-ins are counted per IP and per account, each on its own: five failures from one IP lock that IP
 * out, and five failures against one account lock that account out from every IP, for a minute. Never one
 * global bucket, so one noisy client cannot lock everybody out.
 */
export class LoginLockout {
  readonly #perIp = this.#limiter('ip');
  readonly #perAccount = this.#limiter('account');

  #limiter(prefix: string) {
    return new RateLimiterMemory({
      keyPrefix: `login-${prefix}`,
      points: limits.loginAttempts,
      duration: limits.loginLockoutWindowSeconds,
    });
  }

  /** @throws HttpError 429 (ValidationException, "Too many login attempts…") when the IP or account is locked. */
  async assertNotLocked(ip: string, account?: string): Promise<void> {
    const states = await Promise.all([
      this.#perIp.get(ip),
      account === undefined ? null : this.#perAccount.get(account),
    ]);
    const locked = states.filter(
      (state): state is RateLimiterRes => state !== null && state.consumedPoints >= limits.loginAttempts,
    );
    if (locked.length === 0) return;
    const waitMs = Math.max(...locked.map((state) => state.msBeforeNext));
    throw loginLockout(Math.max(1, Math.ceil(waitMs / 1000)), limits.loginAttempts);
  }

  async recordFailure(ip: string, account: string): Promise<void> {
    // consume() rejects once the bucket is over its limit; the count still went up, which is all we need.
    await Promise.allSettled([this.#perIp.consume(ip), this.#perAccount.consume(account)]);
  }

  /** A successful sign-in clears the account's count (not the IP's: one good password must not reset it). */
  async clearAccount(account: string): Promise<void> {
    await this.#perAccount.delete(account);
  }
}

/** Known accounts are counted by id, so username and email attempts add up; unknown ones by the typed name. */
export const accountKey = (userId: number | undefined, login: string) =>
  userId === undefined ? `name:${login.trim().toLowerCase()}` : `user:${userId}`;

import type { User } from '@aerie/panel/features/users/user';
import { type HttpError, tooManyRequests } from '@aerie/panel/http/errors';
import type { SharedStore } from '@aerie/panel/shared-store/shared-store';
import { limits } from '@aerie/shared/limits';
import ipaddr from 'ipaddr.js';
import { FailureThrottle } from './failure-throttle';
import { verifyPassword } from './password-hash';

/**
 * Where a guess comes from, for counting: an IPv4 address as it is, an IPv6 address by its /64 (one host is
 * usually handed a whole /64, so counting single addresses would give it billions of fresh counters).
 */
export function throttleAddress(ip: string): string {
  try {
    const address = ipaddr.process(ip);
    if (address.kind() === 'ipv4') return address.toString();
    const prefix = (address as ipaddr.IPv6).toNormalizedString().split(':').slice(0, 4).join(':');
    return `${prefix}::/64`;
  } catch {
    return ip;
  }
}

/**
 * The current-password check of changes made with only a session or an API key (email, password, 2FA on and
 * off). Failures are counted per account AND address together, like sign-in counts them per address: whoever
 * holds a stolen session or key gets a handful of guesses a minute from one place, while the owner, from
 * anywhere else, can still change the password (which ends the thief's sessions). A count per account alone
 * would let the thief lock the owner out of exactly that. Refusals are the client API's throttle answer
 * (429 TooManyRequestsHttpException "Too Many Attempts." with Retry-After and X-RateLimit-*).
 */
export class PasswordRecheck {
  readonly #throttle: FailureThrottle;

  constructor(store: SharedStore) {
    this.#throttle = new FailureThrottle(store, {
      name: 'password-recheck',
      attempts: limits.passwordRecheckAttempts,
      windowSeconds: limits.passwordRecheckWindowSeconds,
      refusal: tooManyRequests,
    });
  }

  /**
   * @param wrongPassword the route's own answer to a wrong or missing password
   * @throws HttpError 429 while this account and address are over their attempts (checked before the password,
   *   so a locked-out guesser learns nothing even from a right guess); `wrongPassword()` otherwise
   */
  async verify(user: User, ip: string, password: unknown, wrongPassword: () => HttpError): Promise<void> {
    const key = recheckKey(user, ip);
    await this.#throttle.assertNotLocked([key]);
    const valid = typeof password === 'string' && (await verifyPassword(user.passwordHash, password));
    if (!valid) {
      await this.#throttle.recordFailure([key]);
      throw wrongPassword();
    }
  }

  /**
   * Counts an answer that told the caller something about other accounts (an email address already taken) as
   * an attempt, so even the account's owner can only probe a few addresses a minute.
   */
  async recordProbe(user: User, ip: string): Promise<void> {
    await this.#throttle.recordFailure([recheckKey(user, ip)]);
  }
}

const recheckKey = (user: User, ip: string) => `user:${user.id}|${throttleAddress(ip)}`;

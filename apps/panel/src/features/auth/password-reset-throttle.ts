import { tooManyRequests } from '@aerie/panel/http/errors';
import type { SharedStore } from '@aerie/panel/shared-store/shared-store';
import { type RateLimiterAbstract, RateLimiterRes } from 'rate-limiter-flexible';
import { FailureThrottle } from './failure-throttle';
import { throttleAddress } from './password-recheck';

/** The figures of the forgotten-password throttles (README "Security", docs/api/auth.md). */
export const passwordResetLimits = {
  /** Reset links asked for one email address from one address per minute (the reference's 2 a minute). */
  linkRequestsPerEmailAndAddress: 2,
  /** Reset links asked from one address, all email addresses together, per minute. */
  linkRequestsPerAddress: 10,
  /** Wrong tokens for one email address from one address per minute, and from one address in all. */
  resetFailuresPerEmailAndAddress: 5,
  resetFailuresPerAddress: 50,
} as const;

/**
 * `POST /auth/password` (a reset link) and `POST /auth/password/reset` (the new password with the link's token),
 * limited per email address **and** client address, with a ceiling per client address: asking for someone's link,
 * or trying tokens for them, never stops that person from asking for their own from elsewhere, nor anyone else
 * behind the same address. Refusals are the reference's 429 `Too Many Attempts.` with Retry-After.
 */
export class PasswordResetThrottle {
  readonly #linksHere: RateLimiterAbstract;
  readonly #linksFromAddress: RateLimiterAbstract;
  readonly #failuresHere: FailureThrottle;
  readonly #failuresFromAddress: FailureThrottle;

  constructor(store: SharedStore) {
    const limit = passwordResetLimits;
    this.#linksHere = store.counter({
      name: 'reset-link-email-address',
      points: limit.linkRequestsPerEmailAndAddress,
      windowSeconds: 60,
    });
    this.#linksFromAddress = store.counter({
      name: 'reset-link-address',
      points: limit.linkRequestsPerAddress,
      windowSeconds: 60,
    });
    this.#failuresHere = new FailureThrottle(store, {
      name: 'reset-fail-email-address',
      attempts: limit.resetFailuresPerEmailAndAddress,
      windowSeconds: 60,
      refusal: tooManyRequests,
    });
    this.#failuresFromAddress = new FailureThrottle(store, {
      name: 'reset-fail-address',
      attempts: limit.resetFailuresPerAddress,
      windowSeconds: 60,
      refusal: tooManyRequests,
    });
  }

  /** Counts one request for a link. @throws HttpError 429 past either limit */
  async consumeLinkRequest(email: unknown, ip: string): Promise<void> {
    const checks: [RateLimiterAbstract, string, number][] = [
      [this.#linksFromAddress, throttleAddress(ip), passwordResetLimits.linkRequestsPerAddress],
      [this.#linksHere, hereKey(email, ip), passwordResetLimits.linkRequestsPerEmailAndAddress],
    ];
    for (const [limiter, key, points] of checks) {
      try {
        await limiter.consume(key);
      } catch (rejection) {
        if (!(rejection instanceof RateLimiterRes)) throw rejection;
        throw tooManyRequests(Math.max(1, Math.ceil(rejection.msBeforeNext / 1000)), points);
      }
    }
  }

  /** @throws HttpError 429 while this email address from this client address, or the client address, is over */
  async assertResetAllowed(email: unknown, ip: string): Promise<void> {
    await this.#failuresFromAddress.assertNotLocked([throttleAddress(ip)]);
    await this.#failuresHere.assertNotLocked([hereKey(email, ip)]);
  }

  async recordResetFailure(email: unknown, ip: string): Promise<void> {
    await Promise.all([
      this.#failuresFromAddress.recordFailure([throttleAddress(ip)]),
      this.#failuresHere.recordFailure([hereKey(email, ip)]),
    ]);
  }
}

/** The email address as typed (trimmed, lowercased; anything but a string counts as empty) and the client address. */
const hereKey = (email: unknown, ip: string) =>
  `${typeof email === 'string' ? email.trim().toLowerCase().slice(0, 191) : ''}|${throttleAddress(ip)}`;

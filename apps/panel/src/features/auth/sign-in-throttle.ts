import { type HttpError, loginLockout } from '@aerie/panel/http/errors';
import type { SharedStore } from '@aerie/panel/shared-store/shared-store';
import { limits } from '@aerie/shared/limits';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import { FailureThrottle } from './failure-throttle';
import type { KnownAddresses } from './known-addresses';
import { throttleAddress } from './password-recheck';

/** The figures of the sign-in throttle (README "Security", docs/api/auth.md). */
export const signInLimits = {
  /** Failed sign-ins from one address, all accounts together, per minute: enough for an office or a NAT. */
  addressFailures: 50,
  addressWindowSeconds: 60,
  /** Failed sign-ins for one account from one address per minute (Pterodactyl's login throttle key). */
  accountAddressFailures: limits.loginAttempts,
  accountAddressWindowSeconds: limits.loginLockoutWindowSeconds,
  /** Failed sign-ins against one account from everywhere within 15 minutes before the slow-down starts. */
  accountFreeFailures: 10,
  accountWindowSeconds: 15 * 60,
  /** Each failure past the free ones makes the next attempt wait this long, doubled each time (5 s, 10 s, 20 s …)… */
  accountFirstDelaySeconds: 5,
  /** …at most this. */
  accountMaxDelaySeconds: 60,
} as const;

/** Whose sign-in it is: known accounts by id (username and email attempts add up), unknown ones by the name typed. */
export interface SignInAccount {
  key: string;
  userId: number | undefined;
}

/** Known accounts are counted by id, so username and email attempts add up; unknown ones by the typed name. */
export const accountKey = (userId: number | undefined, login: string) =>
  userId === undefined ? `name:${login.trim().toLowerCase()}` : `user:${userId}`;

export const signInAccount = (userId: number | undefined, login: string): SignInAccount => ({
  key: accountKey(userId, login),
  userId,
});

/**
 * Failed sign-ins (passwords and 2FA codes alike), counted so that nobody can be kept out by someone else:
 *
 * - per account **and** address (Pterodactyl's key): 5 a minute, then 429 for that account from that address;
 * - per address, all accounts together: 50 a minute, so one noisy address is stopped without locking out everyone
 *   behind a shared one (an office, a NAT, a reverse proxy without TRUST_PROXY);
 * - per account, from everywhere: past 10 failures in 15 minutes, each further failure makes the next attempt from
 *   an address the owner never signed in from wait longer (5 s, 10 s, 20 s … 60 s). An address the account signed
 *   in from before (`KnownAddresses`) is never slowed down; with reCAPTCHA on, the captcha each attempt already
 *   passed stands in for the wait.
 *
 * Unknown accounts go through every step the same way (counted by the name typed, the known-address query made),
 * so the answers and their timing do not tell which accounts exist. Counters live in the shared store (Redis with
 * REDIS_URL, so every panel process sees the same counts).
 */
export class SignInThrottle {
  readonly #address: FailureThrottle;
  readonly #accountAddress: FailureThrottle;
  readonly #accountFailures: RateLimiterAbstract;
  readonly #delay: RateLimiterAbstract;
  readonly #throttledLogged: RateLimiterAbstract;

  constructor(
    private readonly deps: {
      store: SharedStore;
      known: KnownAddresses;
      /** Whether reCAPTCHA is on (panel settings): then every attempt passed it, and no delay is added. */
      captchaEnabled: () => Promise<boolean>;
    },
  ) {
    const { store } = deps;
    this.#address = new FailureThrottle(store, {
      name: 'sign-in-address',
      attempts: signInLimits.addressFailures,
      windowSeconds: signInLimits.addressWindowSeconds,
      refusal: loginLockout,
    });
    this.#accountAddress = new FailureThrottle(store, {
      name: 'sign-in-account-address',
      attempts: signInLimits.accountAddressFailures,
      windowSeconds: signInLimits.accountAddressWindowSeconds,
      refusal: loginLockout,
    });
    this.#accountFailures = store.counter({
      name: 'sign-in-account',
      points: Number.MAX_SAFE_INTEGER,
      windowSeconds: signInLimits.accountWindowSeconds,
    });
    this.#delay = store.counter({
      name: 'sign-in-delay',
      points: 1,
      windowSeconds: signInLimits.accountMaxDelaySeconds,
    });
    this.#throttledLogged = store.counter({ name: 'sign-in-throttled-logged', points: 1, windowSeconds: 60 });
  }

  /** @throws HttpError 429 (Laravel's lockout answer) while the address is over its ceiling, whatever account. */
  async assertAddressAllowed(ip: string): Promise<void> {
    await this.#address.assertNotLocked([addressKey(ip)]);
  }

  /**
   * @returns the 429 to answer when this account may not be tried from this address now (over its count here, or
   *   slowed down and the address not one it signed in from), else null
   */
  async accountRefusal(ip: string, account: SignInAccount): Promise<HttpError | null> {
    const here = await this.#accountAddress.lockedFor([accountAddressKey(ip, account)]);
    if (here !== null) return loginLockout(here, signInLimits.accountAddressFailures);
    const delay = await this.#delay.get(account.key);
    if (delay === null || delay.consumedPoints <= 1) return null;
    const [known, captcha] = await Promise.all([
      this.deps.known.has(account.userId, ip),
      this.deps.captchaEnabled(),
    ]);
    if (known || captcha) return null;
    return loginLockout(Math.max(1, Math.ceil(delay.msBeforeNext / 1000)), signInLimits.accountFreeFailures);
  }

  async recordFailure(ip: string, account: SignInAccount): Promise<void> {
    const [, , total] = await Promise.all([
      this.#address.recordFailure([addressKey(ip)]),
      this.#accountAddress.recordFailure([accountAddressKey(ip, account)]),
      this.#accountFailures.consume(account.key).then((state) => state.consumedPoints),
    ]);
    const past = total - signInLimits.accountFreeFailures;
    if (past > 0) {
      const seconds = Math.min(
        signInLimits.accountFirstDelaySeconds * 2 ** (past - 1),
        signInLimits.accountMaxDelaySeconds,
      );
      await this.#delay.block(account.key, seconds);
    }
  }

  /** The right secret: this account's count at this address starts over (the address and account counts do not). */
  async clearAccountAddress(ip: string, account: SignInAccount): Promise<void> {
    await this.#accountAddress.clear(accountAddressKey(ip, account));
  }

  /** A completed sign-in: the address is one the account is never slowed down from. */
  async signedIn(ip: string, userId: number): Promise<void> {
    await this.deps.known.remember(userId, ip);
  }

  /** Whether a refusal should be logged on the account: once a minute per account and address, not per request. */
  async shouldLogRefusal(ip: string, account: SignInAccount): Promise<boolean> {
    try {
      await this.#throttledLogged.consume(accountAddressKey(ip, account));
      return true;
    } catch {
      return false;
    }
  }
}

const addressKey = (ip: string) => throttleAddress(ip);
const accountAddressKey = (ip: string, account: SignInAccount) => `${account.key}|${throttleAddress(ip)}`;

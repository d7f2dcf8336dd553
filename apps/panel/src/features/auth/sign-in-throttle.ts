import { type HttpError, loginLockout } from '@aerie/panel/http/errors';
import type { SharedStore } from '@aerie/panel/shared-store/shared-store';
import { limits } from '@aerie/shared/limits';
import type { RateLimiterAbstract, RateLimiterRes } from 'rate-limiter-flexible';
import { FailureThrottle } from './failure-throttle';
import type { KnownAddresses, SignInDoor } from './known-addresses';
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

/** How long to wait before the next attempt, and the count it is over (for the answer's rate-limit headers). */
export interface SignInWait {
  seconds: number;
  limit: number;
}

/** The web's answer to a wait: Laravel's lockout 429. */
export const signInLockout = (wait: SignInWait): HttpError => loginLockout(wait.seconds, wait.limit);

/**
 * An attempt let through to the secret check. It is counted against the account from the moment it is let
 * through, so parallel attempts cannot all pass before the first failure is recorded; the caller ends it with
 * `recordFailure`, `succeeded` or `release`.
 */
export interface SignInAttempt {
  ip: string;
  account: SignInAccount;
  /** The account's count of attempts in the window, this one included. */
  readonly counted: number;
  /** Whether it holds the account's one slot for an attempt past the free ones. */
  readonly holdsSlot: boolean;
}

export type SignInAdmission =
  | { admitted: true; attempt: SignInAttempt }
  | { admitted: false; wait: SignInWait };

/**
 * Failed sign-ins (passwords and 2FA codes on the web, passwords and unreadable keys over SFTP, all counted
 * together: one account has one budget of guesses whichever door they come through), counted so that nobody can
 * be kept out by someone else:
 *
 * - per account **and** address (Pterodactyl's key): 5 a minute, then 429 for that account from that address;
 * - per address, all accounts together: 50 a minute, so one noisy address is stopped without locking out everyone
 *   behind a shared one (an office, a NAT, a reverse proxy without TRUST_PROXY);
 * - per account, from everywhere: past 10 failures in 15 minutes, each further failure makes the next attempt from
 *   an address the owner never signed in from wait longer (5 s, 10 s, 20 s … 60 s). An address the account signed
 *   in from before (`KnownAddresses`; for an SFTP login, a web sign-in or an SFTP login from there) is never
 *   slowed down; with reCAPTCHA on, the captcha each web attempt already passed stands in for the wait (SFTP has
 *   no captcha, so its attempts always wait). Attempts count from the moment they are let through, and past the
 *   free ones a slowed-down account is tried by one attempt at a time, so parallel guesses get no more through
 *   than one after the other.
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
    const wait = await this.addressWait(ip);
    if (wait) throw loginLockout(wait.seconds, wait.limit);
  }

  /** @returns the wait while the address is over its ceiling, whatever account, else null */
  async addressWait(ip: string): Promise<SignInWait | null> {
    const seconds = await this.#address.lockedFor([addressKey(ip)]);
    return seconds === null ? null : { seconds, limit: signInLimits.addressFailures };
  }

  /**
   * Lets an attempt on this account from this address through to the secret check, or says how long to wait:
   * over its count at this address; or past the account's free failures, from an address it never got in from,
   * while the wait after the last failure runs or another such attempt is being checked (one at a time).
   * @param door where the attempt comes from: the web (a captcha, when on, stands in for the slow-down; only web
   *   sign-ins make an address known for it) or SFTP (never spared by a captcha; an address is known by a web
   *   sign-in or an SFTP login)
   */
  async admit(ip: string, account: SignInAccount, door: SignInDoor): Promise<SignInAdmission> {
    const here = await this.#accountAddress.lockedFor([accountAddressKey(ip, account)]);
    if (here !== null) {
      return { admitted: false, wait: { seconds: here, limit: signInLimits.accountAddressFailures } };
    }
    // Counted before the check (and given back unless it fails): the count is what parallel attempts see.
    const counted = (await this.#accountFailures.consume(account.key)).consumedPoints;
    const letThrough = (holdsSlot: boolean): SignInAdmission => ({
      admitted: true,
      attempt: { ip, account, counted, holdsSlot },
    });
    if (counted <= signInLimits.accountFreeFailures) return letThrough(false);
    const [known, captcha] = await Promise.all([
      this.deps.known.has(account.userId, ip, door === 'web' ? ['web'] : ['web', 'sftp']),
      door === 'web' ? this.deps.captchaEnabled() : false,
    ]);
    if (known || captcha) return letThrough(false);
    try {
      // The slot: free once the last failure's wait is over and no other slowed-down attempt is being checked.
      await this.#delay.consume(account.key);
      return letThrough(true);
    } catch (refused) {
      await this.#accountFailures.reward(account.key, 1);
      const msBeforeNext = (refused as Partial<RateLimiterRes>).msBeforeNext ?? 1000;
      return {
        admitted: false,
        wait: {
          seconds: Math.max(1, Math.ceil(msBeforeNext / 1000)),
          limit: signInLimits.accountFreeFailures,
        },
      };
    }
  }

  /**
   * The secret was wrong: the address and the account at this address count it, and past the account's free
   * failures the next attempt from an address it never got in from waits 5 s, doubling each time up to 60 s.
   */
  async recordFailure(attempt: SignInAttempt): Promise<void> {
    const { ip, account, counted } = attempt;
    await Promise.all([
      this.#address.recordFailure([addressKey(ip)]),
      this.#accountAddress.recordFailure([accountAddressKey(ip, account)]),
    ]);
    const past = counted - signInLimits.accountFreeFailures;
    if (past > 0) {
      const seconds = Math.min(
        signInLimits.accountFirstDelaySeconds * 2 ** (past - 1),
        signInLimits.accountMaxDelaySeconds,
      );
      await this.#delay.block(account.key, seconds);
    }
  }

  /**
   * The right secret: the attempt is given back, and this account's count at this address starts over (the
   * address's count and the account's failures do not).
   */
  async succeeded(attempt: SignInAttempt): Promise<void> {
    await Promise.all([
      this.release(attempt),
      this.#accountAddress.clear(accountAddressKey(attempt.ip, attempt.account)),
    ]);
  }

  /** An attempt that turned out not to be a guess (an SSH key offer the user does not hold): given back. */
  async release(attempt: SignInAttempt): Promise<void> {
    await Promise.all([
      this.#accountFailures.reward(attempt.account.key, 1),
      attempt.holdsSlot ? this.#delay.delete(attempt.account.key) : undefined,
    ]);
  }

  /**
   * A failure that concerns no account the panel could name (a provider's answer with a bad state, one it could not
   * use): the address's count alone, so an address hammering the callback is stopped like one guessing passwords.
   */
  async recordAddressFailure(ip: string): Promise<void> {
    await this.#address.recordFailure([addressKey(ip)]);
  }

  /** A completed sign-in: the address is one the account is never slowed down from (through that door). */
  async signedIn(ip: string, userId: number, door: SignInDoor = 'web'): Promise<void> {
    await this.deps.known.remember(userId, ip, door);
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

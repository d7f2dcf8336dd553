import type { HttpError } from '@aerie/panel/http/errors';
import type { SharedStore } from '@aerie/panel/shared-store/shared-store';
import type { RateLimiterAbstract, RateLimiterRes } from 'rate-limiter-flexible';

export interface FailureThrottleOptions {
  /** Names the counters (rate-limiter-flexible's key prefix): two throttles never share a count. */
  name: string;
  /** Failures allowed per key inside one window; the next attempt is refused until the window ends. */
  attempts: number;
  windowSeconds: number;
  /** The answer once a key is locked: its wait in whole seconds and the number of attempts allowed. */
  refusal: (retryAfterSeconds: number, attempts: number) => HttpError;
}

/**
 * Counts failed secret checks (a password, a 2FA code) under one or more keys and refuses further attempts while
 * any of the keys is over its count. Only failures are counted, so a user who types the right secret is never
 * slowed down. Counters live in the shared store: this process's memory, or Redis shared by every panel process
 * when REDIS_URL is set.
 */
export class FailureThrottle {
  readonly #counts: RateLimiterAbstract;

  constructor(
    store: SharedStore,
    private readonly options: FailureThrottleOptions,
  ) {
    this.#counts = store.counter({
      name: options.name,
      points: options.attempts,
      windowSeconds: options.windowSeconds,
    });
  }

  /** @throws the refusal (an HttpError 429) when one of `keys` has used up its attempts. */
  async assertNotLocked(keys: readonly string[]): Promise<void> {
    const wait = await this.lockedFor(keys);
    if (wait !== null) throw this.options.refusal(wait, this.options.attempts);
  }

  /** @returns the whole seconds until the last of `keys` over its count is free again, or null when none is. */
  async lockedFor(keys: readonly string[]): Promise<number | null> {
    const { attempts } = this.options;
    const states = await Promise.all(keys.map((key) => this.#counts.get(key)));
    const locked = states.filter(
      (state): state is RateLimiterRes => state !== null && state.consumedPoints >= attempts,
    );
    if (locked.length === 0) return null;
    const waitMs = Math.max(...locked.map((state) => state.msBeforeNext));
    return Math.max(1, Math.ceil(waitMs / 1000));
  }

  /** @returns the highest count among `keys` after this failure */
  async recordFailure(keys: readonly string[]): Promise<number> {
    // consume() rejects once a key is over its limit; the count still went up, which is all we need.
    const results = await Promise.allSettled(keys.map((key) => this.#counts.consume(key)));
    return Math.max(
      0,
      ...results.map((result) =>
        result.status === 'fulfilled'
          ? result.value.consumedPoints
          : ((result.reason as Partial<RateLimiterRes>).consumedPoints ?? 0),
      ),
    );
  }

  async clear(key: string): Promise<void> {
    await this.#counts.delete(key);
  }
}

import type { HttpError } from '@aerie/panel/http/errors';
import type { RateLimiterRes } from 'rate-limiter-flexible';
import { RateLimiterMemory } from 'rate-limiter-flexible';

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
 * slowed down. Counters are in memory, per process (see docs/architecture.md).
 */
export class FailureThrottle {
  readonly #counts: RateLimiterMemory;

  constructor(private readonly options: FailureThrottleOptions) {
    this.#counts = new RateLimiterMemory({
      keyPrefix: options.name,
      points: options.attempts,
      duration: options.windowSeconds,
    });
  }

  /** @throws the refusal (an HttpError 429) when one of `keys` has used up its attempts. */
  async assertNotLocked(keys: readonly string[]): Promise<void> {
    const { attempts, refusal } = this.options;
    const states = await Promise.all(keys.map((key) => this.#counts.get(key)));
    const locked = states.filter(
      (state): state is RateLimiterRes => state !== null && state.consumedPoints >= attempts,
    );
    if (locked.length === 0) return;
    const waitMs = Math.max(...locked.map((state) => state.msBeforeNext));
    throw refusal(Math.max(1, Math.ceil(waitMs / 1000)), attempts);
  }

  async recordFailure(keys: readonly string[]): Promise<void> {
    // consume() rejects once a key is over its limit; the count still went up, which is all we need.
    await Promise.allSettled(keys.map((key) => this.#counts.consume(key)));
  }

  async clear(key: string): Promise<void> {
    await this.#counts.delete(key);
  }
}

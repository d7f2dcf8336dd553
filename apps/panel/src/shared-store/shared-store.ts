import type { Log } from '@aerie/panel/logging/log';
import { type RateLimiterAbstract, RateLimiterMemory } from 'rate-limiter-flexible';
import { RedisSharedStore } from './redis-shared-store';

export interface CounterOptions {
  /** Names the counters: two limiters of different names never share a count. */
  name: string;
  /** Points allowed per key inside one window. */
  points: number;
  windowSeconds: number;
}

/**
 * What every panel process must see alike when several run behind a load balancer: counters (rate limits, sign-in
 * throttles) and events every process must hear (a settings change). One interface, two implementations: this
 * process's memory (no REDIS_URL, one panel process: as before) and Redis (REDIS_URL, any number of processes).
 * The database holds everything else they share (sessions, users, schedules' claims).
 */
export interface SharedStore {
  readonly kind: 'memory' | 'redis';
  /** A rate-limiter-flexible limiter over this store (RateLimiterMemory or RateLimiterRedis). */
  counter(options: CounterOptions): RateLimiterAbstract;
  /** Tells every panel process (this one included) subscribed to `channel`. Best effort: never throws. */
  publish(channel: string, message: string): Promise<void>;
  subscribe(channel: string, listener: (message: string) => void): void;
  /** Waits (at most `timeoutMs`) until counters reach the shared store: whether they do. */
  connected(timeoutMs: number): Promise<boolean>;
  close(): Promise<void>;
}

/** One process: counters and events in memory. */
export class MemorySharedStore implements SharedStore {
  readonly kind = 'memory';
  readonly #listeners = new Map<string, Set<(message: string) => void>>();

  counter({ name, points, windowSeconds }: CounterOptions): RateLimiterAbstract {
    return new RateLimiterMemory({ keyPrefix: name, points, duration: windowSeconds });
  }

  async publish(channel: string, message: string): Promise<void> {
    for (const listener of this.#listeners.get(channel) ?? []) listener(message);
  }

  async connected(): Promise<boolean> {
    return true;
  }

  subscribe(channel: string, listener: (message: string) => void): void {
    const listeners = this.#listeners.get(channel) ?? new Set();
    listeners.add(listener);
    this.#listeners.set(channel, listeners);
  }

  async close(): Promise<void> {
    this.#listeners.clear();
  }
}

/** Redis when `redis` is configured (REDIS_URL), else this process's memory. */
export function createSharedStore(
  redis: { url: string; prefix: string } | undefined,
  log: Pick<Log, 'warn'>,
): SharedStore {
  return redis ? new RedisSharedStore(redis, log) : new MemorySharedStore();
}

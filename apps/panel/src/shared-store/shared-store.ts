import type { RateLimiterAbstract } from 'rate-limiter-flexible';

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

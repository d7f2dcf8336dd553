import type { Log } from '@aerie/panel/logging/log';
import { Redis } from 'ioredis';
import { type RateLimiterAbstract, RateLimiterMemory, RateLimiterRedis } from 'rate-limiter-flexible';
import type { CounterOptions, SharedStore } from './shared-store';

/** How often a lost connection is logged at most. */
const WARN_EVERY_MS = 30_000;
/** The longest a counter waits for a Redis that is connected but does not answer. */
export const COMMAND_TIMEOUT_MS = 300;

/**
 * Counters and events in Redis, for several panel processes. Every key and channel starts with the prefix
 * (REDIS_PREFIX), so panels of different installations can share one Redis. While Redis cannot be reached each
 * counter falls back to this process's memory (rate-limiter-flexible's insurance limiter): limits then hold per
 * process, never fail open for everyone, and never turn every request into an error. Events published while it is
 * away are lost (their listeners only drop caches that expire on their own).
 */
export class RedisSharedStore implements SharedStore {
  readonly kind = 'redis';
  readonly #client: Redis;
  #subscriber: Redis | undefined;
  readonly #listeners = new Map<string, Set<(message: string) => void>>();
  #lastWarning = 0;

  constructor(
    private readonly options: { url: string; prefix: string },
    private readonly log: Pick<Log, 'warn'>,
  ) {
    // No command waits for Redis: while it is away (no queue of commands for its return) or hung (each command
    // gives up after COMMAND_TIMEOUT_MS), counters use their insurance at once, so a sign-in never waits seconds.
    this.#client = new Redis(options.url, {
      maxRetriesPerRequest: 1,
      connectTimeout: 2000,
      commandTimeout: COMMAND_TIMEOUT_MS,
      enableOfflineQueue: false,
    });
    this.#client.on('error', (error) => this.#warn(error));
  }

  counter({ name, points, windowSeconds }: CounterOptions): RateLimiterAbstract {
    return new RateLimiterRedis({
      storeClient: this.#client,
      keyPrefix: `${this.options.prefix}${name}`,
      points,
      duration: windowSeconds,
      // Refuse at once, not after a time-out, while the connection is down: the insurance counts instead.
      rejectIfRedisNotReady: true,
      insuranceLimiter: new RateLimiterMemory({ keyPrefix: name, points, duration: windowSeconds }),
    });
  }

  async publish(channel: string, message: string): Promise<void> {
    try {
      await this.#client.publish(this.#channel(channel), message);
    } catch (error) {
      this.#warn(error);
    }
  }

  connected(timeoutMs: number): Promise<boolean> {
    if (this.#client.status === 'ready') return Promise.resolve(true);
    return new Promise((resolve) => {
      const done = (ready: boolean) => {
        clearTimeout(timer);
        this.#client.off('ready', onReady);
        resolve(ready);
      };
      const onReady = () => done(true);
      const timer = setTimeout(() => done(false), timeoutMs);
      this.#client.on('ready', onReady);
    });
  }

  subscribe(channel: string, listener: (message: string) => void): void {
    const listeners = this.#listeners.get(channel) ?? new Set();
    listeners.add(listener);
    this.#listeners.set(channel, listeners);
    const subscriber = this.#subscriberConnection();
    // ioredis subscribes again by itself after a reconnection.
    subscriber.subscribe(this.#channel(channel)).catch((error: unknown) => this.#warn(error));
  }

  async close(): Promise<void> {
    this.#listeners.clear();
    await Promise.all(
      [this.#client, this.#subscriber].map((connection) =>
        connection?.quit().catch(() => connection.disconnect()),
      ),
    );
  }

  #subscriberConnection(): Redis {
    if (this.#subscriber) return this.#subscriber;
    // Subscriptions wait for Redis instead (queued until it answers, renewed by ioredis after a reconnection): no
    // request waits on them.
    const subscriber = this.#client.duplicate({ enableOfflineQueue: true, commandTimeout: undefined });
    subscriber.on('error', (error) => this.#warn(error));
    subscriber.on('message', (fullChannel: string, message: string) => {
      const channel = fullChannel.slice(`${this.options.prefix}events:`.length);
      for (const listener of this.#listeners.get(channel) ?? []) listener(message);
    });
    this.#subscriber = subscriber;
    return subscriber;
  }

  #channel(channel: string): string {
    return `${this.options.prefix}events:${channel}`;
  }

  #warn(error: unknown): void {
    const now = Date.now();
    if (now - this.#lastWarning < WARN_EVERY_MS) return;
    this.#lastWarning = now;
    this.log.warn(
      { err: error },
      'Redis (REDIS_URL) cannot be reached: limits count in this process until it is back',
    );
  }
}

import { type RateLimiterAbstract, RateLimiterMemory } from 'rate-limiter-flexible';
import type { CounterOptions, SharedStore } from './shared-store';

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

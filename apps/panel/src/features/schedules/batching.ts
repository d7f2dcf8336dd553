import { isTransientConflict } from '@aerie/panel/db/dialect';

/**
 * Small tools that let thousands of schedule runs share database round trips and daemon connections: runs that
 * start in the same minute ask and write at the same moments, so their reads and writes are gathered and sent
 * together instead of one statement each.
 */

interface Waiter<T> {
  resolve: (value: T) => void;
  reject: (error: unknown) => void;
}

/**
 * Gathers the keys asked for during one turn of the event loop (and while a load is running) into one call of
 * `load`, DataLoader-style.
 */
export class BatchedLoader<K, V> {
  #pending = new Map<K, Waiter<V | undefined>[]>();
  #running: Promise<void> | null = null;

  constructor(private readonly load: (keys: K[]) => Promise<Map<K, V>>) {}

  get(key: K): Promise<V | undefined> {
    return new Promise((resolve, reject) => {
      const waiters = this.#pending.get(key) ?? [];
      waiters.push({ resolve, reject });
      this.#pending.set(key, waiters);
      this.#start();
    });
  }

  #start() {
    if (this.#running) return;
    this.#running = (async () => {
      await new Promise((resolve) => setImmediate(resolve));
      while (this.#pending.size > 0) {
        const batch = this.#pending;
        this.#pending = new Map();
        try {
          const values = await this.load([...batch.keys()]);
          for (const [key, waiters] of batch) for (const waiter of waiters) waiter.resolve(values.get(key));
        } catch (error) {
          for (const waiters of batch.values()) for (const waiter of waiters) waiter.reject(error);
        }
      }
      this.#running = null;
    })();
  }
}

/** At most `limit` calls at once; the others wait their turn in order. */
export class ConcurrencyGate {
  #active = 0;
  #queue: (() => void)[] = [];

  constructor(private readonly limit: number) {}

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.#active >= this.limit) await new Promise<void>((resolve) => this.#queue.push(resolve));
    this.#active += 1;
    try {
      return await work();
    } finally {
      this.#active -= 1;
      this.#queue.shift()?.();
    }
  }
}

/** A wait of `ms` that ends early, without error, when `signal` aborts. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}

/**
 * Runs `work` again when the database failed it for a conflict with another writer (a deadlock between two panels'
 * claims, SQLite busy): the statement or transaction was rolled back whole, and the worker's writes are safe to
 * repeat. Up to `attempts` tries, a short random pause between them.
 */
export async function retryOnConflict<T>(work: () => Promise<T>, attempts = 6): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      if (attempt >= attempts || !isTransientConflict(error)) throw error;
      await new Promise((resolve) => setTimeout(resolve, attempt * (5 + Math.random() * 20)));
    }
  }
}

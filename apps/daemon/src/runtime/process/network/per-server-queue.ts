/**
 * One change at a time per server: a restart's setup never meets the last run's teardown halfway. Each task waits
 * for the one before it on the same key to settle (whatever its outcome); keys with nothing waiting are forgotten.
 */
export class PerServerQueue {
  readonly #tails = new Map<string, Promise<unknown>>();

  run<T>(uuid: string, task: () => Promise<T>): Promise<T> {
    const previous = this.#tails.get(uuid) ?? Promise.resolve();
    const next = previous.then(task, task);
    const settled = next.catch(() => {});
    this.#tails.set(uuid, settled);
    void settled.then(() => {
      if (this.#tails.get(uuid) === settled) this.#tails.delete(uuid);
    });
    return next;
  }
}

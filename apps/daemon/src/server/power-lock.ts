import { POWER_LOCKED_MESSAGE } from './console-server';

/** Wings' refusal when a power action arrives while another one is still running for the same server. */
export { POWER_LOCKED_MESSAGE };

export class PowerLockedError extends Error {
  override name = 'PowerLockedError';
  constructor() {
    super(POWER_LOCKED_MESSAGE);
  }
}

/**
 * One power action at a time per server. A caller waits up to `waitMs` for its turn (0: refuse at once),
 * in arrival order; whoever gets the lock must call the release function it receives.
 */
export class PowerLock {
  #held = false;
  readonly #waiting: Array<() => void> = [];

  get held(): boolean {
    return this.#held;
  }

  /** @throws PowerLockedError when the lock is not free within `waitMs` */
  acquire(waitMs: number): Promise<() => void> {
    if (!this.#held) {
      this.#held = true;
      return Promise.resolve(this.#releaser());
    }
    if (waitMs <= 0) return Promise.reject(new PowerLockedError());
    return new Promise((resolve, reject) => {
      const turn = () => {
        clearTimeout(timer);
        resolve(this.#releaser());
      };
      const timer = setTimeout(() => {
        this.#waiting.splice(this.#waiting.indexOf(turn), 1);
        reject(new PowerLockedError());
      }, waitMs);
      this.#waiting.push(turn);
    });
  }

  #releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.#waiting.shift();
      // The lock passes straight to the next waiter, so nobody can slip in between.
      if (next) next();
      else this.#held = false;
    };
  }
}

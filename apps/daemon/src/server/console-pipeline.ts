/** Wings' `throttles.lines` and `throttles.line_reset_interval`. */
export const THROTTLE_LINES = 2000;
export const THROTTLE_WINDOW_MS = 100;
/** What `send logs` replays. */
export const HISTORY_LINES = 150;

export const THROTTLE_NOTICE = 'Server is outputting console data too quickly -- throttling...';

/** What to do with one console line. */
export type LineVerdict = 'deliver' | 'drop' | 'drop with notice';

/**
 * One server's console between the process and its listeners: a ring of the last 150 lines and Wings' throttle,
 * a fixed window of 2000 lines per 100 ms. Lines past the limit are dropped (not buffered); the first drop of an
 * episode asks for one notice, and the notice re-arms once a line gets through again.
 */
export class ConsolePipeline {
  readonly #history: string[] = [];
  readonly #limit: number;
  readonly #windowMs: number;
  readonly #now: () => number;
  #historyStart = 0;
  #windowStart = Number.NEGATIVE_INFINITY;
  #windowCount = 0;
  #throttling = false;

  constructor(options: { lines?: number; windowMs?: number; now?: () => number } = {}) {
    this.#limit = options.lines ?? THROTTLE_LINES;
    this.#windowMs = options.windowMs ?? THROTTLE_WINDOW_MS;
    this.#now = options.now ?? Date.now;
  }

  /** Records the line in the history and says whether listeners get it. */
  push(line: string): LineVerdict {
    this.#remember(line);
    const now = this.#now();
    if (now - this.#windowStart >= this.#windowMs) {
      this.#windowStart = now;
      this.#windowCount = 0;
    }
    this.#windowCount += 1;
    if (this.#windowCount <= this.#limit) {
      this.#throttling = false;
      return 'deliver';
    }
    if (this.#throttling) return 'drop';
    this.#throttling = true;
    return 'drop with notice';
  }

  /** Keeps a line in the history only (what the daemon said while no console was open). */
  remember(line: string): void {
    this.#remember(line);
  }

  /** A new start begins with a fresh window (Wings resets it when the server enters `starting`). */
  resetWindow(): void {
    this.#windowStart = Number.NEGATIVE_INFINITY;
    this.#windowCount = 0;
    this.#throttling = false;
  }

  /** The last lines, oldest first. */
  history(size = HISTORY_LINES): string[] {
    const ordered = [
      ...this.#history.slice(this.#historyStart),
      ...this.#history.slice(0, this.#historyStart),
    ];
    return ordered.slice(Math.max(0, ordered.length - size));
  }

  #remember(line: string): void {
    if (this.#history.length < HISTORY_LINES) {
      this.#history.push(line);
      return;
    }
    this.#history[this.#historyStart] = line;
    this.#historyStart = (this.#historyStart + 1) % HISTORY_LINES;
  }
}

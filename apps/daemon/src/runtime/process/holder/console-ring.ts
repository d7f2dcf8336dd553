/** One kept line and its number. */
export interface NumberedLine {
  n: number;
  s: string;
}

/**
 * The holder's bounded log: the last lines a game printed, numbered, held to `maxLines` and `maxBytes` (UTF-16
 * length, close enough for a bound), so a daemon that was away can read what it missed and a flood costs a fixed
 * amount of memory.
 */
export class ConsoleRing {
  readonly #maxLines: number;
  readonly #maxBytes: number;
  readonly #lines: NumberedLine[] = [];
  #head = 0;
  #bytes = 0;
  #last = 0;

  constructor(options: { maxLines: number; maxBytes: number }) {
    this.#maxLines = options.maxLines;
    this.#maxBytes = options.maxBytes;
  }

  /** The number of the last line pushed (0 before any). */
  get last(): number {
    return this.#last;
  }

  push(text: string): NumberedLine {
    this.#last += 1;
    const line = { n: this.#last, s: text };
    this.#lines.push(line);
    this.#bytes += text.length;
    while (this.#lines.length - this.#head > this.#maxLines || this.#bytes > this.#maxBytes) {
      const dropped = this.#lines[this.#head] as NumberedLine;
      this.#bytes -= dropped.s.length;
      this.#head += 1;
      if (this.#head === this.#lines.length) break;
    }
    // Compact now and then, not at every drop: the array shifts once per maxLines pushes.
    if (this.#head > this.#maxLines) {
      this.#lines.splice(0, this.#head);
      this.#head = 0;
    }
    return line;
  }

  /** Every kept line numbered above `after`, oldest first. */
  after(after: number): NumberedLine[] {
    const kept = this.#lines.length - this.#head;
    if (kept === 0) return [];
    const first = (this.#lines[this.#head] as NumberedLine).n;
    const start = this.#head + Math.max(0, after + 1 - first);
    return this.#lines.slice(start);
  }
}

import { appendFile, mkdir, open, readFile, rename } from 'node:fs/promises';
import path from 'node:path';
import type { RemoteActivityRow } from '@aerie/shared/activity/remote-activity-wire';
import { isShippableRow } from './activity-row';

/** A row waiting for the panel, with its place in the outbox (rows are removed by it). */
export interface OutboxEntry {
  seq: number;
  row: RemoteActivityRow;
}

export interface ActivityOutboxOptions {
  /** The JSON-lines file (`DAEMON_DATA_DIR/activity-outbox.jsonl`). */
  file: string;
  /** Rows kept waiting at most; beyond it the oldest go (the panel unreachable for days must not fill the disk). */
  maxPending?: number;
  log?: { warn(message: string): void };
}

export const DEFAULT_MAX_PENDING = 10_000;

/**
 * The activity rows the daemon has yet to ship to the panel (Wings keeps them in `wings.db`), kept in memory and
 * in an append-only JSON-lines file so they survive a restart. Each row is appended as one line; shipped or dropped
 * rows leave the file when it is rewritten whole (a temporary file, fsync, rename), so a kill at any moment leaves
 * either the old or the new file, at worst with a torn last line, which loading skips. Bounded: `maxPending` rows
 * in memory (the oldest dropped beyond it, said in the log), the file rewritten before it holds twice that.
 */
export class ActivityOutbox {
  readonly #file: string;
  readonly #maxPending: number;
  readonly #log: { warn(message: string): void };
  /** seq → row, oldest first. */
  #entries = new Map<number, RemoteActivityRow>();
  /** Appended rows not yet on disk; a rewrite puts them there too. */
  #unwritten: number[] = [];
  #flushQueued = false;
  #nextSeq = 1;
  #linesOnDisk = 0;
  #dropped = 0;
  /** Every write to the file, one after another, in the order they were asked for. */
  #writes: Promise<void> = Promise.resolve();

  private constructor(options: ActivityOutboxOptions) {
    this.#file = options.file;
    this.#maxPending = options.maxPending ?? DEFAULT_MAX_PENDING;
    this.#log = options.log ?? { warn: console.warn };
  }

  /** Loads what the last daemon left (skipping unreadable lines) and rewrites the file when any were skipped. */
  static async open(options: ActivityOutboxOptions): Promise<ActivityOutbox> {
    const outbox = new ActivityOutbox(options);
    await mkdir(path.dirname(options.file), { recursive: true, mode: 0o700 });
    const text = await readFile(options.file, 'utf8').catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return '';
      throw error;
    });
    const lines = text.split('\n');
    // After the last newline: empty, or a line a kill cut short.
    const torn = lines.pop() ?? '';
    let unreadable = torn === '' ? 0 : 1;
    const rows: RemoteActivityRow[] = [];
    for (const line of lines) {
      const row = parseLine(line);
      if (row) rows.push(row);
      else unreadable++;
    }
    const kept = rows.slice(-outbox.#maxPending);
    for (const row of kept) outbox.#entries.set(outbox.#nextSeq++, row);
    outbox.#linesOnDisk = lines.length;
    if (unreadable > 0) {
      outbox.#log.warn(`Activity outbox: skipped ${unreadable} unreadable line(s) of ${options.file}`);
    }
    if (rows.length > kept.length) outbox.#noteDropped(rows.length - kept.length);
    if (unreadable > 0 || rows.length > kept.length) await outbox.#compact();
    return outbox;
  }

  /** Rows waiting, oldest first. */
  get pending(): OutboxEntry[] {
    return [...this.#entries].map(([seq, row]) => ({ seq, row }));
  }

  get size(): number {
    return this.#entries.size;
  }

  /** Rows dropped since the daemon started because the outbox was full. */
  get dropped(): number {
    return this.#dropped;
  }

  /**
   * Adds a row (a row the panel would refuse is left out, said in the log); written to the file in the
   * background, in order (`settled()` waits for it).
   */
  append(row: RemoteActivityRow): void {
    if (!isShippableRow(row)) {
      this.#log.warn(
        `Activity outbox: left out a row the panel would refuse (${String((row as { event?: unknown }).event)})`,
      );
      return;
    }
    const seq = this.#nextSeq++;
    this.#entries.set(seq, row);
    this.#unwritten.push(seq);
    for (const oldest of this.#entries.keys()) {
      if (this.#entries.size <= this.#maxPending) break;
      this.#entries.delete(oldest);
      this.#noteDropped(1);
    }
    if (this.#flushQueued) return;
    this.#flushQueued = true;
    this.#enqueue(() => this.#flush());
  }

  /** Appends the rows added since the last write that are still waiting; past the file's bound, rewrites it. */
  async #flush(): Promise<void> {
    this.#flushQueued = false;
    const rows = this.#unwritten.splice(0).flatMap((seq) => this.#entries.get(seq) ?? []);
    if (rows.length === 0) return;
    if (this.#linesOnDisk + rows.length > 2 * this.#maxPending) return this.#compactNow();
    await appendFile(this.#file, rows.map((row) => `${JSON.stringify(row)}\n`).join(''), { mode: 0o600 });
    this.#linesOnDisk += rows.length;
  }

  /** Takes rows out (shipped, or refused by the panel) and rewrites the file without them. */
  async remove(seqs: ReadonlySet<number>): Promise<void> {
    if (seqs.size === 0) return;
    for (const seq of seqs) this.#entries.delete(seq);
    await this.#compact();
  }

  /** Resolves once every write asked for so far is on disk (or has failed, said in the log). */
  settled(): Promise<void> {
    return this.#writes;
  }

  #compact(): Promise<void> {
    return this.#enqueue(() => this.#compactNow());
  }

  /** The file rewritten with exactly the rows in memory: a temporary file made durable, then renamed over it. */
  async #compactNow(): Promise<void> {
    // Taken at once: rows appended while this writes stay unwritten, and are appended after it.
    const covered = new Set(this.#entries.keys());
    const rows = [...this.#entries.values()];
    const temporary = `${this.#file}.tmp`;
    const handle = await open(temporary, 'w', 0o600);
    try {
      await handle.writeFile(rows.map((row) => `${JSON.stringify(row)}\n`).join(''));
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temporary, this.#file);
    this.#linesOnDisk = rows.length;
    this.#unwritten = this.#unwritten.filter((seq) => !covered.has(seq));
  }

  #enqueue(write: () => Promise<void>): Promise<void> {
    this.#writes = this.#writes.then(write).catch((error: unknown) => {
      // The rows stay in memory; the next rewrite puts them all on disk again.
      this.#log.warn(`Activity outbox: could not write ${this.#file}: ${(error as Error).message}`);
    });
    return this.#writes;
  }

  /** Said at the first drop and every thousandth after, so a flood does not flood the log as well. */
  #noteDropped(count: number): void {
    const before = this.#dropped;
    this.#dropped += count;
    if (before === 0 || Math.floor(before / 1000) !== Math.floor(this.#dropped / 1000)) {
      this.#log.warn(
        `Activity outbox full (${this.#maxPending} rows waiting for the panel): dropped the oldest, ${this.#dropped} so far`,
      );
    }
  }
}

function parseLine(line: string): RemoteActivityRow | undefined {
  try {
    const value: unknown = JSON.parse(line);
    return isShippableRow(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

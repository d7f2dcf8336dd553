import { lstat, readdir } from 'node:fs/promises';
import path from 'node:path';

/** Wings' `system.disk_check_interval`: a count older than this is stale. */
export const DISK_CHECK_INTERVAL_MS = 150_000;
/**
 * While a game runs it can write as fast as the disk takes it: its volume is recounted this often at the least,
 * and otherwise every WALK_COST_FACTOR walks' time (a tree that takes 1 s to walk, every 20 s), so passing the
 * limit is noticed in seconds while a large tree costs at most 5 % of a core.
 */
export const RUNNING_DISK_CHECK_MS = 5_000;
export const WALK_COST_FACTOR = 20;

/**
 * Bytes of the regular files under `directory`, by lstat: symlinks are not followed (a link to /var would
 * otherwise count the whole machine), hard links count each time, no block rounding. Entries that vanish during
 * the walk are skipped.
 */
export async function countDirectoryBytes(directory: string): Promise<number> {
  let total = 0;
  const pending = [directory];
  for (let current = pending.pop(); current !== undefined; current = pending.pop()) {
    const entries = await readdir(current, { withFileTypes: true }).catch(() => []);
    const sizes = await Promise.all(
      entries.map(async (entry) => {
        const entryPath = path.join(current, entry.name);
        if (entry.isDirectory()) {
          pending.push(entryPath);
          return 0;
        }
        if (!entry.isFile()) return 0;
        const stats = await lstat(entryPath).catch(() => undefined);
        return stats?.isFile() ? stats.size : 0;
      }),
    );
    for (const size of sizes) total += size;
  }
  return total;
}

/** One server's disk usage: the last count, a fresh count on demand, a background recount when stale. */
export class DiskUsage {
  readonly #directory: string;
  readonly #staleAfterMs: number;
  readonly #now: () => number;
  #bytes = 0;
  #countedAt: number | undefined;
  #counting: Promise<number> | undefined;
  /** How long the last walk took, in ms of the clock given. */
  #lastWalkMs = 0;
  /** Bytes the daemon's own writes added while a walk was under way (see add). */
  #grownDuringWalk = 0;

  constructor(directory: string, options: { staleAfterMs?: number; now?: () => number } = {}) {
    this.#directory = directory;
    this.#staleAfterMs = options.staleAfterMs ?? DISK_CHECK_INTERVAL_MS;
    this.#now = options.now ?? Date.now;
  }

  /** Whether a running game's volume should be walked again now (see RUNNING_DISK_CHECK_MS). */
  get dueWhileRunning(): boolean {
    if (this.#countedAt === undefined) return true;
    const interval = Math.min(
      this.#staleAfterMs,
      Math.max(RUNNING_DISK_CHECK_MS, this.#lastWalkMs * WALK_COST_FACTOR),
    );
    return this.#now() - this.#countedAt >= interval;
  }

  /** The last count (0 before the first). */
  get bytes(): number {
    return this.#bytes;
  }

  get stale(): boolean {
    return this.#countedAt === undefined || this.#now() - this.#countedAt >= this.#staleAfterMs;
  }

  /** Counts now; a count already under way is joined rather than doubled. */
  count(): Promise<number> {
    if (!this.#counting) {
      const began = this.#now();
      this.#grownDuringWalk = 0;
      this.#counting = countDirectoryBytes(this.#directory)
        .then((bytes) => {
          this.#bytes = bytes + this.#grownDuringWalk;
          this.#countedAt = this.#now();
          this.#lastWalkMs = this.#countedAt - began;
          return this.#bytes;
        })
        .finally(() => {
          this.#counting = undefined;
        });
    }
    return this.#counting;
  }

  /**
   * Wings' in-memory counter: the daemon's own writes (file API, uploads, archives) adjust the last count at
   * once, so a quota check between two walks sees them. A walk replaces the count with what it found, plus what
   * writes added while it walked: a file it measured before an upload grew it would otherwise lose those bytes from
   * the count, and an upload could pass the limit. A growth the walk did see is counted twice until the next walk,
   * which errs toward refusing; shrinking during a walk is left to the next one for the same reason.
   */
  add(deltaBytes: number): void {
    this.#bytes = Math.max(0, this.#bytes + deltaBytes);
    if (this.#counting && deltaBytes > 0) this.#grownDuringWalk += deltaBytes;
  }

  /** A fresh count when a running game's volume is due (dueWhileRunning), else the last one. */
  async refreshWhileRunning(): Promise<number> {
    return this.dueWhileRunning ? this.count() : this.#bytes;
  }

  /** The last count, starting a background recount when it is stale; resolves with the new count if one ran. */
  async refreshIfStale(): Promise<number> {
    return this.stale ? this.count() : this.#bytes;
  }
}

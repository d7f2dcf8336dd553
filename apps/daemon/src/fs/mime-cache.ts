import type { Stats } from 'node:fs';

/** How old a file's ctime must be before its sniffed mime may be remembered (see `remember`). */
const SETTLED_MS = 5_000;

interface Remembered {
  dev: number;
  ino: number;
  size: number;
  mtimeMs: number;
  ctimeMs: number;
  mime: string;
}

/**
 * Sniffed mimes of files listed before, so listing an unchanged directory again does not reopen every file. A
 * remembered mime is used only while the file's dev, inode, size, mtime and ctime are all unchanged: any write,
 * truncate, rename over or replacement changes the ctime (which no user can set), so the answer stays the one a
 * fresh sniff would give, as Wings (which sniffs every time) reports. Bounded; oldest forgotten first.
 */
export class MimeCache {
  private readonly entries = new Map<string, Remembered>();

  constructor(private readonly capacity = 20_000) {}

  /** Whether `key` was sniffed before (it may be stale: `lookup` decides). */
  has(key: string): boolean {
    return this.entries.has(key);
  }

  lookup(key: string, stats: Stats): string | undefined {
    const known = this.entries.get(key);
    if (known === undefined) return undefined;
    const same =
      known.dev === stats.dev &&
      known.ino === stats.ino &&
      known.size === stats.size &&
      known.mtimeMs === stats.mtimeMs &&
      known.ctimeMs === stats.ctimeMs;
    return same ? known.mime : undefined;
  }

  /**
   * `stats` must be those of the descriptor the head was read through, taken before the read; `checkedAt` the
   * wall clock before that fstat. Timestamps are kernel-coarse (a tick of a few ms), so a write in the same tick
   * as an earlier one could leave the ctime unchanged: only a file whose ctime is well before `checkedAt` is
   * remembered, so any later change gets a later ctime ("racy git" rule). Fresh files are sniffed every time.
   */
  remember(key: string, stats: Stats, mime: string, checkedAt: number): void {
    if (stats.ctimeMs > checkedAt - SETTLED_MS) {
      this.entries.delete(key);
      return;
    }
    this.entries.delete(key);
    this.entries.set(key, {
      dev: stats.dev,
      ino: stats.ino,
      size: stats.size,
      mtimeMs: stats.mtimeMs,
      ctimeMs: stats.ctimeMs,
      mime,
    });
    if (this.entries.size > this.capacity) {
      const oldest = this.entries.keys().next();
      if (oldest.done !== true) this.entries.delete(oldest.value);
    }
  }
}

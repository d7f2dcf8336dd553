import type { Dir, Stats } from 'node:fs';
import fs from 'node:fs/promises';
import { errnoOf } from './filesystem-error';
import type { DirectoryHandle } from './jail';

/** One name of a directory with its lstat (a symlink is described as the link). */
export interface DirectoryEntry {
  name: string;
  stats: Stats;
}

/**
 * Reads a verified directory a batch at a time (an SFTP directory handle): names come from the kernel as they are
 * asked for, so a folder of 100,000 files is never held in memory at once, and each name is lstat'ed through the
 * directory's descriptor, never followed.
 */
export class DirectoryReader {
  #finished = false;

  private constructor(
    private readonly directory: DirectoryHandle,
    private readonly dir: Dir,
  ) {}

  /** Takes ownership of `directory` (closed with the reader). */
  static async open(directory: DirectoryHandle): Promise<DirectoryReader> {
    try {
      return new DirectoryReader(directory, await fs.opendir(directory.path, { bufferSize: 64 }));
    } catch (error) {
      await directory.close();
      throw error;
    }
  }

  /** Up to `count` more entries; null once the directory has been read to its end. */
  async next(count: number): Promise<DirectoryEntry[] | null> {
    if (this.#finished) return null;
    const entries: DirectoryEntry[] = [];
    while (entries.length < count) {
      const dirent = await this.dir.read();
      if (dirent === null) {
        this.#finished = true;
        break;
      }
      const stats = await fs.lstat(this.directory.child(dirent.name)).catch((error: unknown) => {
        // Gone since the directory was read: skipped, as a listing made a moment later would not show it.
        if (errnoOf(error) === 'ENOENT') return undefined;
        throw error;
      });
      if (stats) entries.push({ name: dirent.name, stats });
    }
    return entries.length === 0 && this.#finished ? null : entries;
  }

  async close(): Promise<void> {
    await this.dir.close().catch(() => undefined);
    await this.directory.close();
  }
}

import { lstat, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { ServerFilesystem } from '@aerie/daemon/fs/server-filesystem';
import { median, timeMs } from './measure';

export interface ListResult {
  entries: number;
  /** The same ServerFilesystem listing again (sniffed mimes of unchanged files remembered). */
  serverFilesystemMs: number[];
  /** A ServerFilesystem opened just before (nothing remembered: every unknown file opened and sniffed). */
  coldMs: number[];
  baselineMs: number[];
}

/** Creates `count` small files in `directory` (which must exist), in parallel batches. */
export async function writeFlatDirectory(directory: string, count: number): Promise<void> {
  for (let start = 0; start < count; start += 500) {
    const batch = Array.from({ length: Math.min(500, count - start) }, (_, offset) =>
      writeFile(path.join(directory, `file-${String(start + offset).padStart(5, '0')}.dat`), 'x'),
    );
    await Promise.all(batch);
  }
}

/** The least a listing can do: one readdir and every lstat in flight at once, no sorting, no jail. */
async function bareList(directory: string): Promise<number> {
  const names = await readdir(directory);
  const stats = await Promise.all(names.map((name) => lstat(path.join(directory, name))));
  return stats.length;
}

/**
 * Alternates the listings for `rounds` rounds after a warm-up, so all see the same page cache and noise: the
 * bare readdir + lstat, a fresh ServerFilesystem (`open()`), and the long-lived `files` listing again.
 */
export async function compareListing(
  files: ServerFilesystem,
  open: () => Promise<ServerFilesystem>,
  userPath: string,
  hostPath: string,
  rounds: number,
): Promise<ListResult> {
  // The whole directory, as the readdir baseline reads it (the files API caps a page at 1000 by default).
  const whole = { limit: Number.POSITIVE_INFINITY };
  const entries = (await files.list(userPath, whole)).length;
  const bare = await bareList(hostPath);
  if (entries !== bare) throw new Error(`list returned ${entries} entries, readdir ${bare}`);
  const result: ListResult = { entries, serverFilesystemMs: [], coldMs: [], baselineMs: [] };
  for (let round = 0; round < rounds; round += 1) {
    result.baselineMs.push(await timeMs(() => bareList(hostPath)));
    const fresh = await open();
    result.coldMs.push(await timeMs(() => fresh.list(userPath, whole)));
    result.serverFilesystemMs.push(await timeMs(() => files.list(userPath, whole)));
  }
  return result;
}

export const medians = (result: ListResult) => ({
  serverFilesystem: median(result.serverFilesystemMs),
  cold: median(result.coldMs),
  baseline: median(result.baselineMs),
});

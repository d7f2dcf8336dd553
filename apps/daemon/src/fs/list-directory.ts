import type { Dirent } from 'node:fs';
import fs from 'node:fs/promises';
import { compareEntries, entryFromStats, type FileEntry, mimeWithoutReading } from './file-entry';
import type { DirectoryHandle } from './jail';
import { mimeFromName, SNIFF_BYTES } from './mime';
import type { MimeCache } from './mime-cache';
import { readHead } from './read-head';

/**
 * Entries described at once. libuv runs four syscalls at a time; more in flight keeps its queue from running dry
 * between our callbacks, and a sliding window (rather than batches) never waits on a batch's slowest entry.
 */
const IN_FLIGHT = 32;

/**
 * The entries of a verified directory, directories first, each by name, with the mime Wings reports (regular
 * files without a known extension are sniffed). `cacheKey` names the directory in `cache` (its user path).
 */
export async function listDirectory(
  directory: DirectoryHandle,
  cache: MimeCache,
  cacheKey: string,
): Promise<FileEntry[]> {
  const names = await fs.readdir(directory.path, { withFileTypes: true });
  const entries: (FileEntry | undefined)[] = [];
  let next = 0;
  const describeNext = async () => {
    const head = Buffer.allocUnsafe(SNIFF_BYTES);
    for (let index = next++; index < names.length; index = next++) {
      entries[index] = await describeListed(directory, names[index] as Dirent, cache, cacheKey, head);
    }
  };
  await Promise.all(Array.from({ length: Math.min(IN_FLIGHT, names.length) }, describeNext));
  return entries.filter((entry): entry is FileEntry => entry !== undefined).sort(compareEntries);
}

/** One row; `undefined` when the name vanished meanwhile (as a failed lstat always did). */
async function describeListed(
  directory: DirectoryHandle,
  dirent: Dirent,
  cache: MimeCache,
  cacheKey: string,
  head: Buffer,
): Promise<FileEntry | undefined> {
  const { name } = dirent;
  const key = `${cacheKey}/${name}`;
  // A file to sniff that was not sniffed before: open it straight away and take its stats from the descriptor
  // (open, fstat, read, close) rather than lstat first and then do all four anyway.
  if (dirent.isFile() && mimeFromName(name) === undefined && !cache.has(key)) {
    const checkedAt = Date.now();
    const sniffed = await readHead(directory, name, head);
    if (sniffed.kind === 'regular') {
      cache.remember(key, sniffed.stats, sniffed.mime, checkedAt);
      return entryFromStats(name, sniffed.stats, sniffed.mime);
    }
    if (sniffed.code === 'ENOENT') return undefined;
    // Swapped for a link, a directory or a pipe, or unreadable: described from its lstat as any other name.
  }
  const stats = await fs.lstat(directory.child(name)).catch(() => undefined);
  if (stats === undefined) return undefined;
  const settled = mimeWithoutReading(name, stats) ?? cache.lookup(key, stats);
  if (settled !== undefined) return entryFromStats(name, stats, settled);
  const checkedAt = Date.now();
  const sniffed = await readHead(directory, name, head);
  if (sniffed.kind !== 'regular') return entryFromStats(name, stats, 'application/octet-stream');
  cache.remember(key, sniffed.stats, sniffed.mime, checkedAt);
  return entryFromStats(name, stats, sniffed.mime);
}

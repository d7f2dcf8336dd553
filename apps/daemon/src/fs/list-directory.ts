import type { Dirent } from 'node:fs';
import fs from 'node:fs/promises';
import { compareEntries, entryFromStats, type FileEntry, mimeWithoutReading } from './file-entry';
import type { DirectoryHandle } from './jail';
import { LIST_DEFAULT_LIMIT } from './list-limits';
import { mimeFromName, SNIFF_BYTES } from './mime';
import type { MimeCache } from './mime-cache';
import { readHead } from './read-head';

/**
 * Entries described at once. libuv runs four syscalls at a time; more in flight keeps its queue from running dry
 * between our callbacks, and a sliding window (rather than batches) never waits on a batch's slowest entry.
 */
const IN_FLIGHT = 32;

// In their own module so the HTTP layer can check a page without loading the listing (and mime) at boot.
export { LIST_DEFAULT_LIMIT, LIST_MAX_DEPTH } from './list-limits';

/** Names read from the directory per system call. */
const READ_BUFFER = 256;

export interface ListOptions {
  /** Entries to skip, in listing order (directories first, then by name). */
  offset?: number;
  /** Most entries returned; LIST_DEFAULT_LIMIT when not given. */
  limit?: number;
  /** Aborted when the caller has gone: the walk stops at the next name and the listing rejects. */
  signal?: AbortSignal;
}

/**
 * One page of a verified directory's entries, directories first, each by name, with the mime Wings reports
 * (regular files without a known extension are sniffed). `cacheKey` names the directory in `cache` (its user path).
 *
 * Memory and time stay bounded whatever the directory holds: the names are streamed (opendir), only the first
 * `offset + limit` in listing order are kept (never more than twice that at once), and only the page's entries are
 * stat'ed or sniffed, `IN_FLIGHT` at a time. A directory of 300,000 files costs one pass over its names.
 * @throws the signal's reason when it is aborted
 */
export async function listDirectory(
  directory: DirectoryHandle,
  cache: MimeCache,
  cacheKey: string,
  options: ListOptions = {},
): Promise<FileEntry[]> {
  const offset = Math.max(0, options.offset ?? 0);
  const limit = Math.max(0, options.limit ?? LIST_DEFAULT_LIMIT);
  const names = (await firstNames(directory, offset + limit, options.signal)).slice(offset);
  const entries: (FileEntry | undefined)[] = [];
  let next = 0;
  const describeNext = async () => {
    const head = Buffer.allocUnsafe(SNIFF_BYTES);
    for (let index = next++; index < names.length; index = next++) {
      options.signal?.throwIfAborted();
      entries[index] = await describeListed(directory, names[index] as Dirent, cache, cacheKey, head);
    }
  };
  await Promise.all(Array.from({ length: Math.min(IN_FLIGHT, names.length) }, describeNext));
  return entries.filter((entry): entry is FileEntry => entry !== undefined).sort(compareEntries);
}

/** Listing order from the names alone (the type opendir reports), as compareEntries orders described entries. */
function compareNames(a: Dirent, b: Dirent): number {
  if (a.isDirectory() !== b.isDirectory()) return a.isDirectory() ? -1 : 1;
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

/**
 * The first `count` names of the directory in listing order, read as a stream. Names gather up to twice `count`,
 * then are sorted and cut back to `count`: O(count) memory and O(n log count) time for n names.
 */
async function firstNames(
  directory: DirectoryHandle,
  count: number,
  signal?: AbortSignal,
): Promise<Dirent[]> {
  signal?.throwIfAborted();
  let kept: Dirent[] = [];
  if (count === 0) return kept;
  const handle = await fs.opendir(directory.path, { bufferSize: READ_BUFFER });
  // Leaving the loop early (abort, error) closes the directory.
  for await (const dirent of handle) {
    signal?.throwIfAborted();
    kept.push(dirent);
    if (kept.length >= 2 * count) kept = kept.sort(compareNames).slice(0, count);
  }
  return kept.sort(compareNames).slice(0, count);
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

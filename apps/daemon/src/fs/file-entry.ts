import type { Stats } from 'node:fs';
import type { DaemonFileStat } from '@aerie/shared/files/file-wire';
import { modeBits, modeString } from './file-mode';
import type { DirectoryHandle } from './jail';
import { mimeFromName, SNIFF_BYTES } from './mime';
import { readHead } from './read-head';

/** One row of a listing, in Wings' field names (the panel turns it into a file_object). */
export type FileEntry = DaemonFileStat;

/**
 * Describes `name` inside an open directory from its lstat. A symlink is shown as the link itself: its target is
 * never stat'ed, so a link to a host file reveals nothing about that file.
 */
export async function describeEntry(
  directory: DirectoryHandle,
  name: string,
  stats: Stats,
): Promise<FileEntry> {
  return entryFromStats(name, stats, mimeWithoutReading(name, stats) ?? (await sniff(directory, name)));
}

/** The row for `name` once its mime is known. */
export function entryFromStats(name: string, stats: Stats, mime: string): FileEntry {
  return {
    name,
    created: stats.ctime.toISOString(),
    modified: stats.mtime.toISOString(),
    mode: modeString(stats.mode),
    mode_bits: modeBits(stats.mode),
    size: stats.size,
    directory: stats.isDirectory(),
    file: stats.isFile(),
    symlink: stats.isSymbolicLink(),
    mime,
  };
}

/** The mime when the type or the name settle it; `undefined` for a regular file whose content must be sniffed. */
export function mimeWithoutReading(name: string, stats: Stats): string | undefined {
  if (stats.isDirectory()) return 'inode/directory';
  if (stats.isSymbolicLink()) return 'inode/symlink';
  if (!stats.isFile()) return 'application/octet-stream';
  return mimeFromName(name);
}

async function sniff(directory: DirectoryHandle, name: string): Promise<string> {
  const head = await readHead(directory, name, Buffer.allocUnsafe(SNIFF_BYTES));
  return head.kind === 'regular' ? head.mime : 'application/octet-stream';
}

/** Directories first, then everything else, each by name. */
export function compareEntries(a: FileEntry, b: FileEntry): number {
  if (a.directory !== b.directory) return a.directory ? -1 : 1;
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

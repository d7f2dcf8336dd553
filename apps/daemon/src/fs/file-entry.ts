import { constants, type Stats } from 'node:fs';
import fs from 'node:fs/promises';
import { modeBits, modeString } from './file-mode';
import type { DirectoryHandle } from './jail';
import { mimeFromContent, mimeFromName, SNIFF_BYTES } from './mime';

const { O_RDONLY, O_NOFOLLOW, O_NONBLOCK, O_NOCTTY } = constants;

/** One row of a listing, in Wings' field names (the panel turns it into a file_object). */
export interface FileEntry {
  name: string;
  /** ctime, ISO 8601. */
  created: string;
  modified: string;
  /** Ten characters, e.g. `-rw-r--r--`. */
  mode: string;
  /** Permission bits in octal, e.g. `644`. */
  mode_bits: string;
  size: number;
  directory: boolean;
  file: boolean;
  symlink: boolean;
  mime: string;
}

/**
 * Describes `name` inside an open directory from its lstat. A symlink is shown as the link itself: its target is
 * never stat'ed, so a link to a host file reveals nothing about that file.
 */
export async function describeEntry(
  directory: DirectoryHandle,
  name: string,
  stats: Stats,
): Promise<FileEntry> {
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
    mime: await mimeOf(directory, name, stats),
  };
}

async function mimeOf(directory: DirectoryHandle, name: string, stats: Stats): Promise<string> {
  if (stats.isDirectory()) return 'inode/directory';
  if (stats.isSymbolicLink()) return 'inode/symlink';
  if (!stats.isFile()) return 'application/octet-stream';
  return mimeFromName(name) ?? (await sniff(directory, name));
}

async function sniff(directory: DirectoryHandle, name: string): Promise<string> {
  // O_NOFOLLOW: the entry may have been swapped for a link since the lstat; O_NONBLOCK: or for a FIFO.
  const handle = await fs
    .open(directory.child(name), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY)
    .catch(() => undefined);
  if (handle === undefined) return 'application/octet-stream';
  try {
    if (!(await handle.stat()).isFile()) return 'application/octet-stream';
    const buffer = Buffer.alloc(SNIFF_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, SNIFF_BYTES, 0);
    return mimeFromContent(buffer.subarray(0, bytesRead));
  } catch {
    return 'application/octet-stream';
  } finally {
    await handle.close();
  }
}

/** Directories first, then everything else, each by name. */
export function compareEntries(a: FileEntry, b: FileEntry): number {
  if (a.directory !== b.directory) return a.directory ? -1 : 1;
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

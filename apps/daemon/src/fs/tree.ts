import { constants, type Stats } from 'node:fs';
import fs from 'node:fs/promises';
import { errnoOf } from './filesystem-error';
import { DirectoryHandle } from './jail';

const { O_RDONLY, O_DIRECTORY, O_NOFOLLOW, O_NOCTTY } = constants;

/**
 * Opens a child directory without following a symlink. Inside a verified directory that keeps us beneath the
 * root by construction. `undefined` when the child is not a directory (any more), including a link swapped in.
 */
export async function openChildNoFollow(
  parent: DirectoryHandle,
  name: string,
): Promise<DirectoryHandle | undefined> {
  try {
    return new DirectoryHandle(
      await fs.open(parent.child(name), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_NOCTTY),
    );
  } catch (error) {
    const code = errnoOf(error);
    if (code === 'ENOTDIR' || code === 'ELOOP' || code === 'ENOENT') return undefined;
    throw error;
  }
}

export interface TreeEntry {
  /** The open directory holding the entry (valid until the walk moves on). */
  parent: DirectoryHandle;
  name: string;
  /** Names from the walk's start down to this entry, the start's own name first. */
  relative: string[];
  /** lstat: symlinks are reported, never followed. */
  stats: Stats;
}

/** Depth-first walk of `name` inside `parent`, parents before children, children by name. Links are not followed. */
export async function* walkTree(
  parent: DirectoryHandle,
  name: string,
  relative: string[] = [name],
): AsyncGenerator<TreeEntry> {
  let stats: Stats;
  try {
    stats = await fs.lstat(parent.child(name));
  } catch (error) {
    if (errnoOf(error) === 'ENOENT') return;
    throw error;
  }
  yield { parent, name, relative, stats };
  if (!stats.isDirectory()) return;
  const directory = await openChildNoFollow(parent, name);
  if (directory === undefined) return;
  try {
    const children = (await fs.readdir(directory.path)).sort();
    for (const child of children) yield* walkTree(directory, child, [...relative, child]);
  } finally {
    await directory.close();
  }
}

/**
 * Removes `name` inside `parent`: a file or a symlink is unlinked (the link only, never its target), a directory
 * is emptied through its own descriptor and then removed. Returns the bytes of regular files freed. This is the fix for CVE-2023-25168 (a recursive delete
 * that followed a symlink onto the host).
 */
export async function removeTree(parent: DirectoryHandle, name: string): Promise<number> {
  const ignoreMissing = (error: unknown) => {
    if (errnoOf(error) !== 'ENOENT') throw error;
  };
  const directory = await openChildNoFollow(parent, name);
  if (directory === undefined) {
    const stats = await fs.lstat(parent.child(name)).catch(() => undefined);
    await fs.unlink(parent.child(name)).catch(ignoreMissing);
    return stats?.isFile() ? stats.size : 0;
  }
  let freed = 0;
  try {
    for (const child of await fs.readdir(directory.path)) freed += await removeTree(directory, child);
  } finally {
    await directory.close();
  }
  await fs.rmdir(parent.child(name)).catch(ignoreMissing);
  return freed;
}

/** Bytes of the regular files under a directory, hard links counted once. */
export async function usedBytes(root: DirectoryHandle): Promise<number> {
  let total = 0;
  const seen = new Set<string>();
  for (const child of await fs.readdir(root.path)) {
    for await (const entry of walkTree(root, child)) {
      if (!entry.stats.isFile()) continue;
      if (entry.stats.nlink > 1) {
        const key = `${entry.stats.dev}:${entry.stats.ino}`;
        if (seen.has(key)) continue;
        seen.add(key);
      }
      total += entry.stats.size;
    }
  }
  return total;
}

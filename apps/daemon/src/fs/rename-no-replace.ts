import fs from 'node:fs/promises';
import { errnoOf, FilesystemError } from './filesystem-error';

/**
 * Moves `from` to `to` and never replaces what is at `to`, even if it appears between a check and the move (the
 * game writes while we rename). Node has no renameat2(RENAME_NOREPLACE), so: a file (or link, or pipe) is linked
 * at the new name, which fails if the name exists, then unlinked at the old one; a directory gets an empty
 * placeholder made atomically at the new name, and rename(2) may replace only that very empty directory (a
 * placeholder the game filled meanwhile makes it fail, leaving their files alone). Both paths are descriptor-based
 * (`/proc/self/fd/N/name`), so neither side is followed through a symlink.
 */
export async function renameNoReplace(from: string, to: string, isDirectory: boolean): Promise<void> {
  if (!isDirectory) {
    await fs.link(from, to).catch(taken);
    await fs.unlink(from);
    return;
  }
  await fs.mkdir(to, 0o700).catch(taken);
  try {
    await fs.rename(from, to);
  } catch (error) {
    await fs.rmdir(to).catch(() => undefined);
    const code = errnoOf(error);
    if (code === 'ENOTEMPTY' || code === 'EEXIST' || code === 'ENOTDIR') throw new FilesystemError('EEXISTS');
    if (code === 'EINVAL') throw new FilesystemError('EINVALID', 'A folder cannot be moved inside itself.');
    throw error;
  }
}

function taken(error: unknown): never {
  if (errnoOf(error) === 'EEXIST') throw new FilesystemError('EEXISTS');
  throw error;
}

import { constants } from 'node:fs';
import fs from 'node:fs/promises';
import { errnoOf } from './filesystem-error';
import { DirectoryHandle } from './jail';
import { openChildNoFollow } from './tree';

const { O_RDONLY, O_DIRECTORY, O_NOFOLLOW, O_NOCTTY } = constants;

/**
 * Gives everything under `root` to `uid:gid` (Wings' permission fix before each start), walking as openat would:
 * each directory is opened O_NOFOLLOW and its entries are changed with lchown through that descriptor
 * (`/proc/self/fd/N/name`), so a name swapped for a symlink during the walk is changed itself and never followed
 * onto the host, and a directory swapped for a link is not entered.
 */
export async function chownTreeNoFollow(root: string, uid: number, gid: number): Promise<void> {
  const top = new DirectoryHandle(await fs.open(root, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_NOCTTY));
  try {
    await top.handle.chown(uid, gid);
    await chownChildren(top, uid, gid);
  } finally {
    await top.close();
  }
}

async function chownChildren(directory: DirectoryHandle, uid: number, gid: number): Promise<void> {
  for (const name of await fs.readdir(directory.path)) {
    try {
      await fs.lchown(directory.child(name), uid, gid);
    } catch (error) {
      // Removed by the game meanwhile: nothing left to give.
      if (errnoOf(error) === 'ENOENT') continue;
      throw error;
    }
    const child = await openChildNoFollow(directory, name);
    if (child === undefined) continue;
    try {
      // The directory opened may not be the one changed above (swapped in between): change it through its fd.
      await child.handle.chown(uid, gid);
      await chownChildren(child, uid, gid);
    } finally {
      await child.close();
    }
  }
}

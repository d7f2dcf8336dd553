import { constants, type Stats } from 'node:fs';
import fs, { type FileHandle } from 'node:fs/promises';
import { DirectoryReader } from './directory-reader';
import { errnoOf, FilesystemError, fromSystemError } from './filesystem-error';
import { pathComponents } from './jail-path';
import type { JailPrimitives } from './jail-primitives';
import { OpenFile, type OpenFileMode } from './open-file';
import { NO_FOLLOW_PATH_FLAGS, O_PATH } from './open-flags';

const { O_RDONLY, O_WRONLY, O_RDWR, O_CREAT, O_EXCL, O_NOFOLLOW, O_NONBLOCK, O_NOCTTY } = constants;
/** Access mode added by the caller (openFile). */
const CREATE_NEW_FLAGS = O_CREAT | O_EXCL | O_NOFOLLOW | O_NOCTTY;
const OPEN_EXISTING_FLAGS = O_NOFOLLOW | O_NONBLOCK | O_NOCTTY;

/**
 * What only SFTP does with a server's files (`files.sftp`): random access through open handles, directories read
 * in batches, raw stats, single removals, symbolic links and times. Same jail, quota and denylist as the files API
 * (`ServerFilesystem`); see docs/api/sftp.md for the requests these serve.
 */
export class SftpFilesystem {
  constructor(private readonly primitives: JailPrimitives) {}

  /**
   * Opens a regular file for reading and writing at any offset (an SFTP handle; see open-file.ts). A symlink,
   * directory, pipe or device is refused, as is writing to a file with several hard links (the other names may
   * lie outside the root). A new file is 0644 and its missing parents are made; writing needs the denylist's
   * leave; truncation frees its bytes at once; growth is held against the quota write by write.
   */
  async openFile(path: string, mode: OpenFileMode): Promise<OpenFile> {
    const components = pathComponents(path);
    if (components.length === 0) throw new FilesystemError('EISDIR');
    const writes = mode.write || mode.truncate || mode.create;
    if (writes) this.primitives.assertAllowed(components);
    return this.primitives.withParent(components, mode.create, async (directory, name) => {
      const existing = await this.primitives.regularOrNothing(directory, name);
      if (existing !== undefined && mode.create && mode.exclusive) throw new FilesystemError('EEXISTS');
      if (existing === undefined && !mode.create) throw new FilesystemError('ENOTFOUND');
      const access = mode.read && writes ? O_RDWR : writes ? O_WRONLY : O_RDONLY;
      const reservation = writes ? await this.primitives.quota.reserve() : undefined;
      let handle: FileHandle | undefined;
      try {
        if (existing === undefined) {
          handle = await fs.open(directory.child(name), access | CREATE_NEW_FLAGS, 0o644);
          await this.primitives.jail.own(handle);
          await handle.chmod(0o644);
        } else {
          handle = await fs.open(directory.child(name), access | OPEN_EXISTING_FLAGS);
        }
        const stats = await handle.stat();
        if (stats.isDirectory()) throw new FilesystemError('EISDIR');
        if (!stats.isFile()) throw new FilesystemError('ENOTREGULAR');
        if (writes && stats.nlink > 1) {
          throw new FilesystemError('EINVALID', 'A file with several hard links cannot be written here.');
        }
        let size = stats.size;
        if (mode.truncate && writes && size > 0) {
          await handle.truncate(0);
          this.primitives.quota.add(-size);
          size = 0;
        }
        return new OpenFile(handle, { reservation, size, append: mode.append });
      } catch (error) {
        reservation?.release();
        await handle?.close().catch(() => undefined);
        throw error;
      }
    });
  }

  /** A directory to read a batch of entries at a time (each described by its lstat); close it when done. */
  async readDirectory(path: string): Promise<DirectoryReader> {
    const directory = await this.primitives.jail.openDirectory(pathComponents(path));
    try {
      return await DirectoryReader.open(directory);
    } catch (error) {
      return fromSystemError(error);
    }
  }

  /**
   * The raw stat of one name, following a final symlink only to where it lands inside the root (checked on the
   * opened descriptor); a link leading outside, or dangling, is described as the link itself.
   */
  async statOf(path: string): Promise<Stats> {
    const components = pathComponents(path);
    if (components.length === 0) return this.primitives.rootStats();
    return this.primitives.withParent(components, false, async (directory, name) => {
      const link = await fs.lstat(directory.child(name));
      if (!link.isSymbolicLink()) return link;
      const target = await fs.open(directory.child(name), O_PATH).catch(() => undefined);
      if (target === undefined) return link;
      try {
        await this.primitives.jail.verify(target);
        return await target.stat();
      } catch {
        return link;
      } finally {
        await target.close();
      }
    });
  }

  /** Removes one file or link (never a directory: `removeDirectory`). */
  async removeFile(path: string): Promise<void> {
    const components = pathComponents(path);
    if (components.length === 0) throw new FilesystemError('EISDIR');
    this.primitives.assertAllowed(components);
    await this.primitives.withParent(components, false, async (directory, name) => {
      const stats = await fs.lstat(directory.child(name));
      if (stats.isDirectory()) throw new FilesystemError('EISDIR');
      await fs.unlink(directory.child(name));
      if (stats.isFile()) this.primitives.quota.add(-stats.size);
    });
  }

  /** Removes an empty directory; one with anything in it is refused (a link to a directory is not one). */
  async removeDirectory(path: string): Promise<void> {
    const components = pathComponents(path);
    if (components.length === 0) {
      throw new FilesystemError('EINVALID', 'The server root cannot be deleted.');
    }
    this.primitives.assertAllowed(components);
    await this.primitives.withParent(components, false, async (directory, name) => {
      await fs.rmdir(directory.child(name)).catch((error: unknown) => {
        const code = errnoOf(error);
        if (code === 'ENOTEMPTY' || code === 'EEXIST') {
          throw new FilesystemError('EINVALID', 'The folder is not empty.');
        }
        throw error;
      });
    });
  }

  /**
   * Makes a symbolic link at `path` to `target`. Only a relative target that stays inside the root is allowed
   * (checked on the names, from the link's own folder): an absolute one would be read by the host against its
   * own root, not the server's. What the link is later used for still goes through the jail.
   */
  async createSymlink(path: string, target: string): Promise<void> {
    const components = pathComponents(path);
    if (components.length === 0) throw new FilesystemError('EEXISTS');
    this.primitives.assertAllowed(components);
    const outside = () =>
      new FilesystemError(
        'EINVALID',
        "A symbolic link may only point inside the server's files, by a relative path.",
      );
    if (typeof target !== 'string' || target === '' || target.startsWith('/') || target.includes('\0')) {
      throw outside();
    }
    try {
      pathComponents([...components.slice(0, -1), target].join('/'));
    } catch {
      throw outside();
    }
    await this.primitives.withParent(components, false, async (directory, name) => {
      await fs.symlink(target, directory.child(name));
      await this.primitives.jail.ownName(directory, name);
    });
  }

  /** What a symbolic link inside the root says (its text only; nothing is followed). */
  async readLink(path: string): Promise<string> {
    const components = pathComponents(path);
    if (components.length === 0) throw new FilesystemError('EINVALID', 'That is not a symbolic link.');
    return this.primitives.withParent(components, false, async (directory, name) => {
      const stats = await fs.lstat(directory.child(name));
      if (!stats.isSymbolicLink()) throw new FilesystemError('EINVALID', 'That is not a symbolic link.');
      return fs.readlink(directory.child(name));
    });
  }

  /** Sets access and modification times, never through a link (as chmod). */
  async setTimes(path: string, accessed: Date | number, modified: Date | number): Promise<void> {
    const components = pathComponents(path);
    this.primitives.assertAllowed(components);
    const apply = async (handle: FileHandle) => {
      if ((await handle.stat()).isSymbolicLink()) throw new FilesystemError('ESYMLINK');
      await fs.utimes(`/proc/self/fd/${handle.fd}`, accessed, modified);
    };
    if (components.length === 0) {
      const root = await this.primitives.jail.openRoot();
      try {
        return await apply(root.handle);
      } finally {
        await root.close();
      }
    }
    await this.primitives.withParent(components, false, async (directory, name) => {
      const handle = await fs.open(directory.child(name), NO_FOLLOW_PATH_FLAGS);
      try {
        await apply(handle);
      } finally {
        await handle.close();
      }
    });
  }
}

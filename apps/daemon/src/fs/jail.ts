import { constants } from 'node:fs';
import fs, { type FileHandle } from 'node:fs/promises';
import { errnoOf, FilesystemError, fromSystemError } from './filesystem-error';

const { O_RDONLY, O_DIRECTORY, O_NOFOLLOW, O_NOCTTY } = constants;
const DIRECTORY_FLAGS = O_RDONLY | O_DIRECTORY | O_NOCTTY;

/**
 * An open directory that was checked to be inside the root. Node has no openat(2), so the magic link
 * `/proc/self/fd/N/<name>` stands in for it: the kernel resolves it through the open descriptor, never through the
 * path it was opened by, so swapping a parent for a symlink after the check cannot redirect the operation.
 */
export class DirectoryHandle {
  readonly path: string;

  constructor(readonly handle: FileHandle) {
    this.path = `/proc/self/fd/${handle.fd}`;
  }

  /** The path of a single name inside this directory, as the kernel will resolve it (like openat(fd, name)). */
  child(name: string): string {
    if (name === '' || name === '.' || name === '..' || name.includes('/')) {
      throw new FilesystemError('EINVALID', 'That is not a valid file name.');
    }
    return `${this.path}/${name}`;
  }

  async close(): Promise<void> {
    await this.handle.close().catch(() => undefined);
  }
}

/** Who owns what the daemon creates in a server's files: the uid its game runs as (a root daemon only). */
export interface FileOwner {
  uid: number;
  gid: number;
}

/** The confinement of one server root: every directory it hands out has been verified to lie beneath the root. */
export class Jail {
  private constructor(
    readonly root: string,
    readonly owner: FileOwner | undefined,
  ) {}

  /** The root is resolved once (Wings: a symlinked data directory is resolved at boot). */
  static async open(root: string, owner?: FileOwner): Promise<Jail> {
    const real = await fs.realpath(root);
    const stats = await fs.stat(real);
    if (!stats.isDirectory()) throw new Error(`Server root ${root} is not a directory`);
    return new Jail(real, owner);
  }

  /** Hands a file or directory the daemon just created to the server's game, through its descriptor. */
  async own(handle: FileHandle): Promise<void> {
    if (this.owner) await handle.chown(this.owner.uid, this.owner.gid);
  }

  /**
   * The same for a name inside an open directory, by lchown on the descriptor-based path: a name swapped for a
   * link meanwhile is changed itself, never followed.
   */
  async ownName(directory: DirectoryHandle, name: string): Promise<void> {
    if (this.owner) await fs.lchown(directory.child(name), this.owner.uid, this.owner.gid);
  }

  isInside(realPath: string): boolean {
    return realPath === this.root || realPath.startsWith(`${this.root}/`);
  }

  /** Refuses an open descriptor that does not point beneath the root (checked on the descriptor itself). */
  async verify(handle: FileHandle): Promise<void> {
    const real = await fs.readlink(`/proc/self/fd/${handle.fd}`);
    if (!this.isInside(real)) throw new FilesystemError('EOUTSIDE');
  }

  async openRoot(): Promise<DirectoryHandle> {
    return new DirectoryHandle(await fs.open(this.root, DIRECTORY_FLAGS | O_NOFOLLOW));
  }

  /**
   * Opens the directory named by `components`, one name at a time. A symlinked directory on the way is followed
   * only if the directory it lands in is still beneath the root (checked on the opened descriptor, so a swap
   * between the check and the use changes nothing). With `create`, missing directories are made 0755; mkdir never
   * follows a symlink, so a dangling link pointing outside cannot make a directory on the host.
   */
  async openDirectory(
    components: readonly string[],
    options: { create?: boolean } = {},
  ): Promise<DirectoryHandle> {
    let current = await this.openRoot();
    try {
      for (const name of components) {
        const next = await this.openChildDirectory(current, name, options.create === true);
        await current.close();
        current = next;
      }
      return current;
    } catch (error) {
      await current.close();
      return fromSystemError(error);
    }
  }

  /** Opens the parent of `components` and returns it with the last name (which must exist: no root itself). */
  async openParent(
    components: readonly string[],
    options: { create?: boolean } = {},
  ): Promise<{ directory: DirectoryHandle; name: string }> {
    const name = components.at(-1);
    if (name === undefined)
      throw new FilesystemError('EINVALID', 'This action cannot be performed on the root.');
    const directory = await this.openDirectory(components.slice(0, -1), options);
    return { directory, name };
  }

  private async openChildDirectory(
    parent: DirectoryHandle,
    name: string,
    create: boolean,
  ): Promise<DirectoryHandle> {
    const path = parent.child(name);
    let handle: FileHandle;
    try {
      handle = await fs.open(path, DIRECTORY_FLAGS);
    } catch (error) {
      if (!create || errnoOf(error) !== 'ENOENT') throw error;
      const made = await fs.mkdir(path, 0o755).then(
        () => true,
        (mkdirError: unknown) => {
          if (errnoOf(mkdirError) !== 'EEXIST') throw mkdirError;
          return false;
        },
      );
      handle = await fs.open(path, DIRECTORY_FLAGS);
      if (made) await this.own(handle).catch(() => undefined);
    }
    try {
      await this.verify(handle);
    } catch (error) {
      await handle.close();
      throw error;
    }
    return new DirectoryHandle(handle);
  }
}

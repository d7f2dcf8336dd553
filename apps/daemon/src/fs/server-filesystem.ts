import { randomUUID } from 'node:crypto';
import type { Stats } from 'node:fs';
import fs, { type FileHandle } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import {
  type JobKind,
  type JournalEntry,
  type ServerJobs,
  unjournaledJobs,
} from '@aerie/daemon/jobs/job-journal';
import { DEFAULT_EXTRACT_LIMITS, type ExtractLimits } from './archive-extractor';
import { ArchiveFilesystem } from './archive-filesystem';
import { Denylist } from './denylist';
import { type DiskQuota, type DiskReservation, unlimitedQuota } from './disk-quota';
import { describeEntry, type FileEntry } from './file-entry';
import { parseMode } from './file-mode';
import { copyNameCandidates } from './file-names';
import { errnoOf, FilesystemError, fromSystemError } from './filesystem-error';
import { type DirectoryHandle, type FileOwner, Jail } from './jail';
import { displayPath, joinComponents, pathComponents } from './jail-path';
import { JailPrimitives } from './jail-primitives';
import { type ListOptions, listDirectory } from './list-directory';
import { MimeCache } from './mime-cache';
import { CREATE_FLAGS, NO_FOLLOW_PATH_FLAGS } from './open-flags';
import { readExactly } from './read-exactly';
import { renameNoReplace } from './rename-no-replace';
import { SftpFilesystem } from './sftp-filesystem';
import { removeTree, usedBytes } from './tree';
import { writeAll } from './write-all';

export interface ServerFilesystemOptions {
  /** The server's directory on the host. */
  root: string;
  quota?: DiskQuota;
  /** The egg's `file_denylist` (gitignore patterns). */
  denylist?: readonly string[];
  extractLimits?: Partial<ExtractLimits>;
  /** Clock for archive and copy names (tests). */
  now?: () => Date;
  /** The uid the server's game runs as: what the daemon creates becomes its (a root daemon only). */
  owner?: FileOwner;
  /** Where archive and decompress jobs are recorded while they write (the daemon's job journal). */
  jobs?: ServerJobs;
}

export interface FileContents {
  /** Exactly `size` bytes; the caller must consume or destroy it (it holds the file open). */
  stream: Readable;
  size: number;
  entry: FileEntry;
}

/** A file's new contents: bytes at once, or a stream or any async source of pieces as they arrive. */
export type FileData = Buffer | Uint8Array | string | Readable | AsyncIterable<Uint8Array>;

/**
 * One server's files, as the daemon's routes use them. Every path is a user path below the server root (`/` is the
 * root); whatever the operation, nothing outside the root is read, written, listed, moved, deleted or chmod'ed:
 * directories are opened one name at a time and verified on their descriptor, final names are never followed when
 * they are symlinks, and recursive work goes through descriptors (see jail.ts). This class holds the files API's
 * operations; SFTP's own are `files.sftp` (sftp-filesystem.ts) and archives' `files.archives`
 * (archive-filesystem.ts), both over this filesystem's jail, quota and denylist (jail-primitives.ts).
 */
export class ServerFilesystem {
  /** Sniffed mimes of unchanged files, so listing a big folder again does not reopen every file. */
  private readonly mimes = new MimeCache();
  /** What only SFTP does: random access, batched directory reads, raw stats, links, times. */
  readonly sftp: SftpFilesystem;
  /** Compress, decompress, a backup's walk, a restore, and an interrupted job's leftovers. */
  readonly archives: ArchiveFilesystem;

  private constructor(private readonly primitives: JailPrimitives) {
    this.sftp = new SftpFilesystem(primitives);
    this.archives = new ArchiveFilesystem(primitives);
  }

  static async open(options: ServerFilesystemOptions): Promise<ServerFilesystem> {
    return new ServerFilesystem(
      new JailPrimitives(
        await Jail.open(options.root, options.owner),
        options.quota ?? unlimitedQuota,
        new Denylist(options.denylist),
        { ...DEFAULT_EXTRACT_LIMITS, ...options.extractLimits },
        options.now ?? (() => new Date()),
        options.jobs ?? unjournaledJobs,
      ),
    );
  }

  /** The resolved root directory on the host. */
  get root(): string {
    return this.primitives.jail.root;
  }

  /** The entries of a directory: directories first, then files, each by name; a page of them (list-directory.ts). */
  async list(directory = '/', options: ListOptions = {}): Promise<FileEntry[]> {
    const components = pathComponents(directory);
    const handle = await this.primitives.jail.openDirectory(components);
    try {
      return await listDirectory(handle, this.mimes, displayPath(components), options);
    } catch (error) {
      return fromSystemError(error);
    } finally {
      await handle.close();
    }
  }

  /** One entry; a symlink is described as the link. */
  async stat(path: string): Promise<FileEntry> {
    const components = pathComponents(path);
    if (components.length === 0) {
      const root = await this.primitives.jail.openRoot();
      try {
        return await describeEntry(root, '/', await root.handle.stat());
      } finally {
        await root.close();
      }
    }
    return this.primitives.withParent(components, false, async (directory, name) =>
      describeEntry(directory, name, await fs.lstat(directory.child(name))),
    );
  }

  /** The raw lstat of one name (a symlink as the link); the root's own stat for `/` (SFTP, a backup's ignore file). */
  async lstatOf(path: string): Promise<Stats> {
    const components = pathComponents(path);
    if (components.length === 0) return this.primitives.rootStats();
    return this.primitives.withParent(components, false, (directory, name) =>
      fs.lstat(directory.child(name)),
    );
  }

  /** A regular file's bytes, up to the size it had when opened. Links, directories, pipes and devices are refused. */
  async readFile(path: string): Promise<FileContents> {
    const components = pathComponents(path);
    if (components.length === 0) throw new FilesystemError('EISDIR');
    const { handle, entry } = await this.primitives.withParent(components, false, async (directory, name) => {
      const opened = await this.openRegular(directory, name);
      const stats = await opened.stat();
      return { handle: opened, entry: await describeEntry(directory, name, stats) };
    });
    return { stream: readExactly(handle, entry.size), size: entry.size, entry };
  }

  /**
   * Writes a file (creating missing parent directories 0755, a new file 0644, an existing file keeps its mode).
   * The quota is reserved before writing: `used + reserved + (new − old) ≤ limit`, for a declared size at once and
   * for a stream of unknown size as it grows, so parallel writes together never pass the limit. The data goes to a
   * temporary file that replaces the target only when complete, so
   * a refused or broken upload leaves the old file as it was. With `job` (a remote pull), the temporary name is a
   * job journal's, so a daemon killed mid-write leaves nothing behind at its next boot.
   */
  async writeFile(
    path: string,
    data: FileData,
    size?: number,
    options: { job?: JobKind } = {},
  ): Promise<FileEntry> {
    const components = pathComponents(path);
    if (components.length === 0) throw new FilesystemError('EISDIR');
    this.primitives.assertAllowed(components);
    const bytes =
      typeof data === 'string' ? Buffer.from(data) : data instanceof Uint8Array ? data : undefined;
    const declared = bytes?.length ?? size;
    return this.primitives.withParent(components, true, async (directory, name) => {
      const existing = await this.primitives.regularOrNothing(directory, name);
      const oldSize = existing?.size ?? 0;
      // Held before the first byte: a declared size at once, a stream as it grows past the old file's size.
      const reservation = await this.primitives.quota.reserve(Math.max(0, (declared ?? 0) - oldSize));
      const tooMuch = () => new FilesystemError('EINVALID', 'More data was sent than announced.');
      let job: JournalEntry | undefined;
      let temporary = `.aerie-upload-${randomUUID()}`;
      let file: FileHandle | undefined;
      let written: number;
      try {
        if (options.job !== undefined) {
          job = await this.primitives.jobs.begin(options.job, {
            directory: components.slice(0, -1),
            recursive: false,
          });
          temporary = job.prefix;
        }
        file = await fs.open(directory.child(temporary), CREATE_FLAGS, 0o644);
        await this.primitives.jail.own(file);
        await file.chmod(existing === undefined ? 0o644 : existing.mode & 0o7777);
        written = await writeAll(
          file,
          bytes === undefined ? (data as AsyncIterable<Uint8Array>) : [bytes],
          declared,
          tooMuch,
          (total) => reservation.ensure(total - oldSize),
        );
        await file.close();
        await job?.checkpoint();
        await fs.rename(directory.child(temporary), directory.child(name));
      } catch (error) {
        reservation.release();
        if (file !== undefined) {
          await file.close().catch(() => undefined);
          await fs.unlink(directory.child(temporary)).catch(() => undefined);
        }
        await job?.end();
        throw error;
      }
      await job?.end();
      reservation.commit(written - oldSize);
      return describeEntry(directory, name, await fs.lstat(directory.child(name)));
    });
  }

  /** Creates `name` (which may hold several levels) inside `path`, mode 0755. */
  async createDirectory(name: string, path = '/'): Promise<void> {
    if (typeof name !== 'string' || name.trim() === '') {
      throw new FilesystemError('EINVALID', 'A valid directory name must be provided.');
    }
    const components = joinComponents(path, name);
    if (components.length === 0) throw new FilesystemError('EEXISTS');
    this.primitives.assertAllowed(components);
    await this.primitives.withParent(components, true, async (directory, name) => {
      await fs.mkdir(directory.child(name), 0o755);
      await this.primitives.jail.ownName(directory, name);
    });
  }

  /**
   * Renames or moves each `from` to `to`, both relative to `root`. Missing destination directories are created; an
   * existing destination (a symlink included) is never replaced. Every pair is checked before anything moves.
   */
  async rename(root: string, files: readonly { from: string; to: string }[]): Promise<void> {
    const moves = files.map(({ from, to }) => {
      const source = joinComponents(root, from);
      const target = joinComponents(root, to);
      if (source.length === 0 || target.length === 0) {
        throw new FilesystemError('EINVALID', 'The server root cannot be renamed.');
      }
      this.primitives.assertAllowed(source);
      this.primitives.assertAllowed(target);
      return { source, target };
    });
    for (const { source, target } of moves) {
      if (source.join('/') === target.join('/')) continue;
      await this.primitives.withParent(source, false, async (from, fromName) => {
        const source = await fs.lstat(from.child(fromName));
        await this.primitives.withParent(target, true, async (to, toName) => {
          await renameNoReplace(from.child(fromName), to.child(toName), source.isDirectory());
        });
      });
    }
  }

  /** Copies a regular file next to itself with Wings' naming (`name copy.ext`, `name copy 1.ext` …). */
  async copy(location: string): Promise<FileEntry> {
    const components = pathComponents(location);
    if (components.length === 0) throw new FilesystemError('EISDIR');
    this.primitives.assertAllowed(components);
    return this.primitives.withParent(components, false, async (directory, name) => {
      const source = await this.openRegular(directory, name);
      let target: FileHandle | undefined;
      let targetName = '';
      let reservation: DiskReservation | undefined;
      try {
        const stats = await source.stat();
        reservation = await this.primitives.quota.reserve(stats.size);
        for (const candidate of copyNameCandidates(name, this.primitives.now())) {
          if (this.primitives.denylist.matches([...components.slice(0, -1), candidate])) continue;
          target = await fs.open(directory.child(candidate), CREATE_FLAGS, 0o644).catch((error: unknown) => {
            if (errnoOf(error) === 'EEXIST') return undefined;
            throw error;
          });
          if (target !== undefined) {
            targetName = candidate;
            break;
          }
        }
        if (target === undefined) throw new FilesystemError('EEXISTS');
        await this.primitives.jail.own(target);
        await target.chmod(stats.mode & 0o7777);
        await writeAll(target, readExactly(source, stats.size));
        reservation.commit(stats.size);
        return describeEntry(directory, targetName, await fs.lstat(directory.child(targetName)));
      } catch (error) {
        // A copy cut short is removed, so the space it held is free again.
        if (target !== undefined) await fs.unlink(directory.child(targetName)).catch(() => undefined);
        throw error;
      } finally {
        reservation?.release();
        await source.close().catch(() => undefined);
        await target?.close();
      }
    });
  }

  /** Deletes each of `files` in `root`; a symlink is removed as a link, its target is never touched. */
  async delete(root: string, files: readonly string[]): Promise<void> {
    const targets = files.map((file) => {
      const components = joinComponents(root, file);
      if (components.length === 0)
        throw new FilesystemError('EINVALID', 'The server root cannot be deleted.');
      this.primitives.assertAllowed(components);
      return components;
    });
    for (const components of targets) {
      try {
        const freed = await this.primitives.withParent(components, false, (directory, name) =>
          removeTree(directory, name),
        );
        this.primitives.quota.add(-freed);
      } catch (error) {
        if (error instanceof FilesystemError && error.code === 'ENOTFOUND') continue;
        throw error;
      }
    }
  }

  /**
   * Sets permission bits. Never through a symlink (GHSA-rhq6-9rgh-v45c): the name is opened O_PATH|O_NOFOLLOW, a
   * link is refused, and the mode is set on that very inode through its descriptor (what glibc does for
   * fchmodat(AT_SYMLINK_NOFOLLOW), since Linux has no lchmod).
   */
  async chmod(root: string, files: readonly { file: string; mode: string | number }[]): Promise<void> {
    const changes = files.map(({ file, mode }) => {
      const components = joinComponents(root, file);
      this.primitives.assertAllowed(components);
      return { components, mode: parseMode(mode) };
    });
    for (const { components, mode } of changes) {
      await this.primitives.withParent(components, false, async (directory, name) => {
        const handle = await fs.open(directory.child(name), NO_FOLLOW_PATH_FLAGS);
        try {
          if ((await handle.stat()).isSymbolicLink()) throw new FilesystemError('ESYMLINK');
          await fs.chmod(`/proc/self/fd/${handle.fd}`, mode);
        } finally {
          await handle.close();
        }
      });
    }
  }

  /** Holds `bytes` of this server's quota for bytes kept elsewhere first (an upload being staged). */
  reserveSpace(bytes = 0): Promise<DiskReservation> {
    return this.primitives.quota.reserve(bytes);
  }

  /** Bytes used by the regular files under the root (lstat sizes, hard links once, links not followed). */
  async diskUsage(): Promise<number> {
    const root = await this.primitives.jail.openRoot();
    try {
      return await usedBytes(root);
    } finally {
      await root.close();
    }
  }

  /** Opens a regular file without following a link; directories, pipes and devices are refused. */
  private async openRegular(directory: DirectoryHandle, name: string): Promise<FileHandle> {
    return (await this.primitives.openRegular(directory, name)).handle;
  }
}

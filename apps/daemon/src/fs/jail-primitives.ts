import type { Stats } from 'node:fs';
import fs, { type FileHandle } from 'node:fs/promises';
import type { ServerJobs } from '@aerie/daemon/jobs/job-journal';
import type { ExtractLimits } from './archive-extractor';
import type { Denylist } from './denylist';
import type { DiskQuota } from './disk-quota';
import { errnoOf, FilesystemError, fromSystemError } from './filesystem-error';
import type { DirectoryHandle, Jail } from './jail';
import { READ_FLAGS } from './open-flags';

/**
 * One server's jail and what every operation on its files is held to (quota, egg denylist, job journal, archive
 * limits, clock), with the helpers that open names through the jail and turn the kernel's errors into
 * `FilesystemError`s. `ServerFilesystem` builds it when it opens and hands the same one to its companions
 * (`sftp-filesystem.ts`, `archive-filesystem.ts`), so all three work under one jail and count against one quota.
 */
export class JailPrimitives {
  constructor(
    readonly jail: Jail,
    readonly quota: DiskQuota,
    readonly denylist: Denylist,
    readonly extractLimits: ExtractLimits,
    readonly now: () => Date,
    readonly jobs: ServerJobs,
  ) {}

  /** @throws FilesystemError EDENIED when the egg's denylist covers the path. */
  assertAllowed(components: readonly string[]): void {
    if (this.denylist.matches(components)) throw new FilesystemError('EDENIED');
  }

  /** Runs `action` with the verified parent directory of `components`, mapping the kernel's errors to ours. */
  async withParent<T>(
    components: readonly string[],
    create: boolean,
    action: (directory: DirectoryHandle, name: string) => Promise<T>,
  ): Promise<T> {
    const { directory, name } = await this.jail.openParent(components, { create });
    try {
      return await action(directory, name);
    } catch (error) {
      return fromSystemError(error);
    } finally {
      await directory.close();
    }
  }

  /** Runs `action` with the verified directory `components` itself, mapping the kernel's errors to ours. */
  async withDirectory<T>(
    components: readonly string[],
    create: boolean,
    action: (directory: DirectoryHandle) => Promise<T>,
  ): Promise<T> {
    const directory = await this.jail.openDirectory(components, { create });
    try {
      return await action(directory);
    } catch (error) {
      return fromSystemError(error);
    } finally {
      await directory.close();
    }
  }

  /** Opens a regular file without following a link; directories, pipes and devices are refused. */
  async openRegular(directory: DirectoryHandle, name: string): Promise<{ handle: FileHandle; stats: Stats }> {
    const handle = await fs.open(directory.child(name), READ_FLAGS);
    try {
      const stats = await handle.stat();
      if (stats.isDirectory()) throw new FilesystemError('EISDIR');
      if (!stats.isFile()) throw new FilesystemError('ENOTREGULAR');
      return { handle, stats };
    } catch (error) {
      await handle.close();
      throw error;
    }
  }

  /**
   * What is at `name` in `directory` before it is written: undefined when nothing, the file's stat when a regular
   * file; a link, a directory or anything else (a pipe, a device) is refused.
   */
  async regularOrNothing(directory: DirectoryHandle, name: string): Promise<Stats | undefined> {
    const existing = await fs.lstat(directory.child(name)).catch((error: unknown) => {
      if (errnoOf(error) === 'ENOENT') return undefined;
      throw error;
    });
    if (existing?.isSymbolicLink()) throw new FilesystemError('ESYMLINK');
    if (existing?.isDirectory()) throw new FilesystemError('EISDIR');
    if (existing !== undefined && !existing.isFile()) throw new FilesystemError('ENOTREGULAR');
    return existing;
  }

  /** The root directory's own stat. */
  async rootStats(): Promise<Stats> {
    const root = await this.jail.openRoot();
    try {
      return await root.handle.stat();
    } finally {
      await root.close();
    }
  }
}

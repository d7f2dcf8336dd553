import { randomBytes } from 'node:crypto';
import { constants, createWriteStream } from 'node:fs';
import fs, { type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { errnoOf, FilesystemError, isDiskFull } from '@aerie/daemon/fs/filesystem-error';
import type { ServerFilesystem } from '@aerie/daemon/fs/server-filesystem';
import type { BackupPanelApi } from '@aerie/daemon/panel-client/panel-client';
import type { ManagedServer } from '@aerie/daemon/server/managed-server';
import type { BackupAdapter } from '@aerie/shared/backups/backups-bodies';
import type {
  BackupCompletedEvent,
  DaemonBackupRequest,
  DaemonRestoreRequest,
  RemoteBackupStatus,
} from '@aerie/shared/backups/backups-daemon-wire';
import { DEFAULT_PART_UPLOAD, type PartUploadOptions, uploadParts } from './s3-upload';

/** Wings waits this long for the server to stop before a restore, and never kills it. */
export const RESTORE_STOP_TIMEOUT_MS = 2 * 60_000;
/** Below this much free space on the backup directory's disk, a backup is refused before it starts. */
export const MIN_FREE_BYTES = 1024 * 1024;
/** Content types a presigned S3 download may answer with (Wings accepts the two gzip types). */
/** An s3 object, or another node's signed download of a local backup (octet-stream); the bytes are checked after. */
export const RESTORE_CONTENT_TYPES = ['application/x-gzip', 'application/gzip', 'application/octet-stream'];

export const DISK_FULL_MESSAGE = "The node's disk is full: the backup could not be written.";
export const restoreCompletedMessage = (adapter: BackupAdapter) =>
  `Completed server restoration from ${adapter} backup.`;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isBackupUuid = (value: string) => UUID.test(value);

export interface BackupServiceOptions {
  /** DAEMON_BACKUP_DIR: `<backup uuid>.tar.gz` of the local adapter, and the temporary files of both adapters. */
  directory: string;
  panel: BackupPanelApi;
  gzipLevel?: number;
  upload?: Partial<PartUploadOptions>;
  restoreStopTimeoutMs?: number;
  /** Where failures are written for the operator (the console gets its own line). */
  log?: (message: string) => void;
  /** Crash tests only (AERIE_TEST_PAUSE_JOB=backup): a backup stops for good once written, before it is kept. */
  pauseBeforeKeeping?: boolean;
}

/**
 * Backups of this node's servers (wings.md §7): tar.gz of the server's files through the jail, to the backup
 * directory (`wings`) or through it to the panel's presigned multipart upload (`s3`); restores from either;
 * deletes. Everything is reported to the panel (`/api/remote/backups/*`) and to the server's sockets.
 */
export class BackupService {
  readonly directory: string;
  readonly #options: BackupServiceOptions;
  readonly #upload: PartUploadOptions;
  readonly #running = new Set<Promise<void>>();
  readonly #inProgress = new Set<string>();

  constructor(options: BackupServiceOptions) {
    this.#options = options;
    this.directory = path.resolve(options.directory);
    this.#upload = { ...DEFAULT_PART_UPLOAD, ...options.upload };
  }

  /**
   * Removes the partial files of backups and restore downloads that a daemon crash interrupted (at boot, before
   * any job starts). The panel fails those backups when this daemon reports for duty (its reset).
   * @returns how many were removed
   */
  async removeLeftovers(): Promise<number> {
    const names = await fs.readdir(this.directory).catch(() => [] as string[]);
    const partial = names.filter((name) => PARTIAL_FILE.test(name));
    await Promise.all(partial.map((name) => fs.rm(path.join(this.directory, name), { force: true })));
    return partial.length;
  }

  /** The local adapter's file of a backup. */
  archivePath(backup: string): string {
    if (!isBackupUuid(backup)) throw new Error(`Not a backup uuid: ${backup}`);
    return path.join(this.directory, `${backup.toLowerCase()}.tar.gz`);
  }

  /** True while a backup of this uuid is being made. */
  isRunning(backup: string): boolean {
    return this.#inProgress.has(backup.toLowerCase());
  }

  /** Resolves once every backup and restore started so far has ended (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.#running.size > 0) await Promise.allSettled([...this.#running]);
  }

  /** Starts a backup in the background; its outcome goes to the panel and the sockets. */
  start(server: ManagedServer, request: DaemonBackupRequest): void {
    const backup = request.uuid.toLowerCase();
    this.#inProgress.add(backup);
    this.#track(
      this.#backup(server, { ...request, uuid: backup }).finally(() => this.#inProgress.delete(backup)),
    );
  }

  /**
   * Starts a restore in the background. The server is marked restoring at once (power actions refused) until the
   * restore has ended and the panel was told.
   * @throws ServerStateError when the server is installing or already restoring
   */
  restore(server: ManagedServer, backup: string, request: DaemonRestoreRequest): void {
    const end = server.beginRestore();
    this.#track(this.#restore(server, backup.toLowerCase(), request).finally(end));
  }

  /** Removes a local backup's file. @returns false when there is none */
  async delete(backup: string): Promise<boolean> {
    try {
      await fs.unlink(this.archivePath(backup));
      return true;
    } catch (error) {
      if (errnoOf(error) === 'ENOENT') return false;
      throw error;
    }
  }

  /** Opens a local backup for reading (never through a link). @returns undefined when there is none */
  async openArchive(backup: string): Promise<{ handle: FileHandle; size: number } | undefined> {
    try {
      const handle = await fs.open(this.archivePath(backup), constants.O_RDONLY | constants.O_NOFOLLOW);
      const stats = await handle.stat();
      if (!stats.isFile()) {
        await handle.close();
        return undefined;
      }
      return { handle, size: stats.size };
    } catch (error) {
      const code = errnoOf(error);
      if (code === 'ENOENT' || code === 'ELOOP') return undefined;
      throw error;
    }
  }

  #track(work: Promise<void>): void {
    this.#running.add(work);
    void work.finally(() => this.#running.delete(work));
  }

  #log(message: string): void {
    (this.#options.log ?? ((line: string) => console.error(line)))(message);
  }

  async #backup(server: ManagedServer, request: DaemonBackupRequest): Promise<void> {
    const { uuid: backup, adapter } = request;
    const temporary = this.#temporaryPath(backup);
    const final = this.archivePath(backup);
    let status: RemoteBackupStatus = failedStatus();
    try {
      await fs.mkdir(this.directory, { recursive: true, mode: 0o700 });
      await this.#assertRoom();
      const files = await server.files();
      // The archive code (tar-stream, yazl, yauzl, ignore) loads with the first backup, not at the daemon's boot.
      const [
        { BackupIgnoreRules, IgnoreRulesError },
        { BACKUP_GZIP_LEVEL, restorableItems, writeBackupFile },
      ] = await Promise.all([import('./ignore-rules'), import('./backup-archive')]);
      const fromRequest = request.ignore.trim() !== '';
      let rules: InstanceType<typeof BackupIgnoreRules>;
      try {
        rules = fromRequest
          ? new BackupIgnoreRules(request.ignore, "The backup's ignored files")
          : new BackupIgnoreRules(await readIgnoreFile(files), IGNORE_FILE_LABEL);
      } catch (error) {
        // Past the bounds: the backup fails, and the console says why (the panel only hears "failed").
        if (error instanceof IgnoreRulesError) server.announce(`Backup failed: ${error.message}`);
        throw error;
      }
      const leftOut: string[] = [];
      const written = await writeBackupFile(
        restorableItems(
          files.archives.backupItems({
            ignores: (relativePath, isDirectory) => rules.ignoresInTurn(relativePath, isDirectory),
            canSkipIgnoredDirectories: rules.canSkipIgnoredDirectories,
          }),
          (name, target) => leftOut.push(`${name} -> ${target}`),
        ),
        temporary,
        this.#options.gzipLevel ?? BACKUP_GZIP_LEVEL,
      );
      if (leftOut.length > 0) {
        const message = `Backup ${backup}: ${leftOut.length} symbolic link(s) pointing outside the server's files were left out: ${leftOut.slice(0, 5).join(', ')}${leftOut.length > 5 ? ', …' : ''}`;
        this.#log(message);
        server.announce(message);
      }
      if (this.#options.pauseBeforeKeeping) await new Promise<never>(() => {});
      let parts: RemoteBackupStatus['parts'] = null;
      if (adapter === 's3') {
        const plan = await this.#options.panel.getBackupUploadParts(backup, written.size);
        parts = await uploadParts(temporary, written.size, plan, this.#upload);
      } else {
        await fs.rename(temporary, final);
      }
      status = {
        successful: true,
        checksum: written.checksum,
        checksum_type: 'sha1',
        size: written.size,
        parts,
      };
    } catch (error) {
      this.#log(`Backup ${backup} of server ${server.uuid} failed: ${describe(error)}`);
    } finally {
      await fs.rm(temporary, { force: true }).catch(() => undefined);
    }
    try {
      await this.#options.panel.reportBackup(backup, status);
    } catch (error) {
      this.#log(`Could not report backup ${backup} to the panel: ${describe(error)}`);
      // Wings: a backup the panel does not know about is not kept.
      if (status.successful) {
        status = failedStatus();
        await fs.rm(final, { force: true }).catch(() => undefined);
      }
    }
    if (!status.successful) await fs.rm(final, { force: true }).catch(() => undefined);
    const event: BackupCompletedEvent = {
      uuid: backup,
      is_successful: status.successful,
      checksum: status.checksum,
      checksum_type: 'sha1',
      file_size: status.size,
    };
    server.emit('backup completed', backup, event);
  }

  async #restore(server: ManagedServer, backup: string, request: DaemonRestoreRequest): Promise<void> {
    let successful = false;
    let downloaded: string | undefined;
    let archive: { handle: FileHandle } | undefined;
    try {
      const stopped = await server.stopAndWait(this.#options.restoreStopTimeoutMs ?? RESTORE_STOP_TIMEOUT_MS);
      if (!stopped) throw new Error('the server did not stop in time, nothing was restored');
      // s3, or a local backup kept by the node the server moved from: fetched from the URL the panel signed.
      if (request.adapter === 's3' || request.download_url) {
        downloaded = this.#temporaryPath(backup, 'restore');
        await fs.mkdir(this.directory, { recursive: true, mode: 0o700 });
        await downloadArchive(request.download_url ?? '', downloaded);
        archive = { handle: await fs.open(downloaded, constants.O_RDONLY | constants.O_NOFOLLOW) };
      } else {
        archive = await this.openArchive(backup);
        if (!archive) throw new Error('the backup file is not on this node');
      }
      const files = await server.files();
      // The whole archive is checked before the truncate removes anything: a refused one leaves the files be.
      await files.archives.extractFrom(archive.handle, { truncate: request.truncate_directory });
      successful = true;
    } catch (error) {
      this.#log(`Restoring backup ${backup} to server ${server.uuid} failed: ${describe(error)}`);
      server.announce(`Restoration of the backup failed: ${describe(error)}`);
    } finally {
      await archive?.handle.close().catch(() => undefined);
      if (downloaded) await fs.rm(downloaded, { force: true }).catch(() => undefined);
    }
    // The panel first (it clears the server's restoring status), the sockets after: a page reloading on the
    // event must not read the server back as still restoring.
    await this.#options.panel.reportRestore(backup, { successful }).catch((error: unknown) => {
      this.#log(`Could not report the restore of backup ${backup} to the panel: ${describe(error)}`);
    });
    if (successful) server.announce(restoreCompletedMessage(request.adapter));
    server.emit('backup restore completed');
  }

  #temporaryPath(backup: string, kind = 'backup'): string {
    return path.join(this.directory, `.${kind}-${backup}-${randomBytes(6).toString('hex')}.tar.gz.part`);
  }

  async #assertRoom(): Promise<void> {
    const stats = await fs.statfs(this.directory);
    if (stats.bavail * stats.bsize < MIN_FREE_BYTES) throw new FilesystemError('ENOSPACE', DISK_FULL_MESSAGE);
  }
}

const IGNORE_FILE_LABEL = '.pteroignore';

/** What #temporaryPath names: a backup or restore download being written. */
const PARTIAL_FILE = /^\.(backup|restore)-[0-9a-f-]{36}-[0-9a-f]{12}\.tar\.gz\.part$/;

const failedStatus = (): RemoteBackupStatus => ({
  successful: false,
  checksum: '',
  checksum_type: 'sha1',
  size: 0,
  parts: null,
});

function describe(error: unknown): string {
  if (isDiskFull(error)) return DISK_FULL_MESSAGE;
  return error instanceof Error ? error.message : String(error);
}

/**
 * The server's `.pteroignore`, when it is a regular file (not a link) of at most 32 KiB; otherwise no rules.
 */
export async function readIgnoreFile(files: ServerFilesystem): Promise<string> {
  const { IGNORE_FILE_MAX_BYTES, IGNORE_FILE_NAME } = await import('./ignore-rules');
  try {
    const stats = await files.lstatOf(`/${IGNORE_FILE_NAME}`);
    if (!stats.isFile() || stats.size > IGNORE_FILE_MAX_BYTES) return '';
    const { stream, size } = await files.readFile(`/${IGNORE_FILE_NAME}`);
    if (size > IGNORE_FILE_MAX_BYTES) {
      stream.destroy();
      return '';
    }
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  } catch {
    return '';
  }
}

/**
 * GETs a presigned archive URL into `destination`: it must answer 2xx with a gzip Content-Type, and at most the
 * extractor's absolute size cap is written.
 */
async function downloadArchive(url: string, destination: string): Promise<void> {
  if (!/^https?:\/\//i.test(url)) throw new Error('the restore has no usable download_url');
  const response = await fetch(url, { signal: AbortSignal.timeout(60 * 60_000) });
  if (!response.ok || !response.body) {
    await response.body?.cancel();
    throw new Error(`the backup download answered HTTP ${response.status}`);
  }
  const type = (response.headers.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  if (!RESTORE_CONTENT_TYPES.includes(type)) {
    await response.body.cancel();
    throw new Error(`the backup download is not a gzip archive (Content-Type: ${type || 'none'})`);
  }
  let received = 0;
  const { DEFAULT_EXTRACT_LIMITS } = await import('@aerie/daemon/fs/archive-extractor');
  const cap = DEFAULT_EXTRACT_LIMITS.maxTotalBytes;
  await pipeline(
    Readable.fromWeb(response.body as import('node:stream/web').ReadableStream),
    new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        received += chunk.length;
        if (received > cap) callback(new Error('the backup download is larger than any restore may be'));
        else callback(null, chunk);
      },
    }),
    createWriteStream(destination, { flags: 'wx', mode: 0o600 }),
  );
}

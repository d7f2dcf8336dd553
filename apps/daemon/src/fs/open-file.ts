import type { Stats } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import type { DiskReservation } from './disk-quota';
import { FilesystemError, fromSystemError } from './filesystem-error';

/** How a file is opened for random access (SFTP's pflags, read as a file manager means them). */
export interface OpenFileMode {
  read: boolean;
  write: boolean;
  /** Create the file when it is missing (its parent directories too, as Wings does). */
  create: boolean;
  /** Empty the file on opening. */
  truncate: boolean;
  /** With `create`: fail when the file exists. */
  exclusive: boolean;
  /** Every write goes to the end of the file, whatever offset it names. */
  append: boolean;
}

/**
 * The largest single read handed out, whatever length is asked for: a request cannot make the daemon allocate
 * more, and the answer with its header stays within the 256 KiB SFTP packet clients accept (OpenSSH's own cap).
 */
export const MAX_READ_BYTES = 255 * 1024;

/**
 * An open regular file of a server, read and written at any offset (what an SFTP handle is). Writes hold the
 * server's quota byte by byte before they land: the file's growth past its size at opening is reserved before
 * each write, so a write that would pass the limit fails and nothing of it reaches the disk (CVE-2026-61617 was
 * Wings checking only at open). On close the growth is settled against the server's disk counter.
 */
export class OpenFile {
  readonly #handle: FileHandle;
  readonly #reservation: DiskReservation | undefined;
  /** Size when opened (after any truncation): what the reservation's growth is measured from. */
  readonly #baseSize: number;
  readonly #append: boolean;
  /** The furthest byte written or set so far: the size the file has unless something else changed it. */
  #extent: number;
  #closed = false;

  /** @internal made by ServerFilesystem.openFile, which checked the path and took the reservation */
  constructor(
    handle: FileHandle,
    options: { reservation: DiskReservation | undefined; size: number; append: boolean },
  ) {
    this.#handle = handle;
    this.#reservation = options.reservation;
    this.#baseSize = options.size;
    this.#extent = options.size;
    this.#append = options.append;
  }

  get writable(): boolean {
    return this.#reservation !== undefined;
  }

  /** Up to `length` bytes (at most MAX_READ_BYTES) from `position`; empty at or past the end. */
  async read(position: number, length: number): Promise<Buffer> {
    this.#assertOpen();
    const size = Math.min(Math.max(0, length), MAX_READ_BYTES);
    const buffer = Buffer.allocUnsafe(size);
    let filled = 0;
    try {
      while (filled < size) {
        const { bytesRead } = await this.#handle.read(buffer, filled, size - filled, position + filled);
        if (bytesRead === 0) break;
        filled += bytesRead;
      }
    } catch (error) {
      return fromSystemError(error);
    }
    return buffer.subarray(0, filled);
  }

  /**
   * Writes `data` at `position` (at the end in append mode).
   * @throws FilesystemError EQUOTA when the growth would pass the server's limit (nothing written), EINVALID on a
   *   read-only handle or an offset beyond what the daemon can address
   */
  async write(position: number, data: Uint8Array): Promise<void> {
    this.#assertOpen();
    const reservation = this.#writableReservation();
    const start = this.#append ? this.#extent : position;
    const end = start + data.length;
    if (!Number.isSafeInteger(end)) throw new FilesystemError('EINVALID', 'That offset is out of range.');
    // Synchronous with the check: pipelined writes of one upload reserve their bytes one after the other.
    if (end > this.#extent) reservation.ensure(end - this.#baseSize);
    this.#extent = Math.max(this.#extent, end);
    try {
      let written = 0;
      while (written < data.length) {
        const { bytesWritten } = await this.#handle.write(
          data,
          written,
          data.length - written,
          start + written,
        );
        written += bytesWritten;
      }
    } catch (error) {
      return fromSystemError(error);
    }
  }

  /** Cuts or extends the file to `size` bytes; growth is held against the quota like a write. */
  async setSize(size: number): Promise<void> {
    this.#assertOpen();
    const reservation = this.#writableReservation();
    if (!Number.isSafeInteger(size) || size < 0) {
      throw new FilesystemError('EINVALID', 'That size is out of range.');
    }
    if (size > this.#extent) reservation.ensure(size - this.#baseSize);
    try {
      await this.#handle.truncate(size);
    } catch (error) {
      return fromSystemError(error);
    }
    this.#extent = size;
  }

  async stat(): Promise<Stats> {
    this.#assertOpen();
    return this.#handle.stat();
  }

  /** Sets the permission bits (0777 only) on this very file. */
  async chmod(mode: number): Promise<void> {
    this.#assertOpen();
    this.#writableReservation();
    await this.#handle.chmod(mode & 0o777);
  }

  async setTimes(accessed: Date | number, modified: Date | number): Promise<void> {
    this.#assertOpen();
    this.#writableReservation();
    await this.#handle.utimes(accessed, modified);
  }

  /** Closes the file and settles what it grew or shrank by with the server's disk counter. Safe to call twice. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    try {
      if (this.#reservation) {
        const finalSize = await this.#handle
          .stat()
          .then((stats) => stats.size)
          .catch(() => this.#extent);
        this.#reservation.commit(finalSize - this.#baseSize);
      }
    } finally {
      this.#reservation?.release();
      await this.#handle.close().catch(() => undefined);
    }
  }

  #assertOpen(): void {
    if (this.#closed) throw new FilesystemError('EINVALID', 'The file is closed.');
  }

  #writableReservation(): DiskReservation {
    if (!this.#reservation) throw new FilesystemError('EINVALID', 'The file was opened for reading only.');
    return this.#reservation;
  }
}

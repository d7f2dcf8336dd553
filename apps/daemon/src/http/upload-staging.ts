import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { Transform, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { DiskReservation } from '@aerie/daemon/fs/disk-quota';
import { HttpError } from '@aerie/daemon/http-kit/http-errors';
import type { Multipart } from '@fastify/multipart';

/** At most this many files in one upload (the panel's page sends one request per file). */
export const MAX_UPLOAD_FILES = 100;
/** All files of one upload together: this many times the per-file limit. */
export const UPLOAD_TOTAL_FACTOR = 10;
/** An upload still arriving after this long is cut off: a slow trickle may not hold staged bytes for hours. */
export const UPLOAD_DEADLINE_MS = 30 * 60 * 1000;

/** The multipart field the panel's page sends its files in (Wings' `files`). */
export const UPLOAD_FIELD = 'files';
export const NO_FILES_MESSAGE = 'No files were provided in the "files" field of the upload.';

export const invalidNameMessage = (name: string) =>
  `The file name ${JSON.stringify(name)} is not valid: it must be a plain name, without "/" or "..".`;
export const tooLargeMessage = (name: string, limitMb: number) =>
  `The file ${JSON.stringify(name)} is larger than the upload limit of ${limitMb} MiB.`;
export const TOO_MANY_FILES_MESSAGE = `An upload may hold at most ${MAX_UPLOAD_FILES} files.`;
export const totalTooLargeMessage = (limitMb: number) =>
  `The files of one upload may add up to at most ${limitMb * UPLOAD_TOTAL_FACTOR} MiB.`;
export const UPLOAD_TOO_SLOW_MESSAGE = 'The upload took too long and was stopped.';

/**
 * A file name as the browser sent it, used as one name inside the upload directory and never joined as a path:
 * empty, `.`, `..`, a `/`, a NUL, or a `..` between backslashes (a Windows path) is refused rather than cleaned.
 */
export function isPlainFileName(name: string): boolean {
  if (name === '' || name === '.' || name === '..') return false;
  if (name.includes('/') || name.includes('\0')) return false;
  return !name.split('\\').includes('..');
}

export interface StagedUpload {
  name: string;
  /** The received bytes, in the daemon's own tmp directory (outside every server root). */
  path: string;
  size: number;
}

export interface StagedUploads {
  files: StagedUpload[];
  /** Removes every staged file; call it whatever happened. */
  cleanup(): Promise<void>;
}

/**
 * Receives every file of the `files` field before any of them reaches the server: a refused name or a file over
 * the limit fails the whole upload with 400 and nothing written. Other fields and file fields are read past.
 * Staged bytes count against the server's quota as they arrive (`reservation` grows with them, and refuses with
 * EQUOTA past the limit), and one request is capped in files, total bytes and time, so no upload can park more
 * on the node's disk than its server may hold.
 * The parts must be read with busboy's `preservePath` (else it would quietly strip `../` from names) and
 * `limits.fileSize` = the limit, without throwFileSizeLimit (the truncation is checked here, for a clear text).
 * @throws HttpError 400 (name, size, no files); the staged files are already removed then
 */
export async function stageUploads(
  parts: AsyncIterable<Multipart>,
  options: { directory: string; limitMb: number; reservation: DiskReservation; now?: () => number },
): Promise<StagedUploads> {
  const now = options.now ?? Date.now;
  const deadline = now() + UPLOAD_DEADLINE_MS;
  const totalLimit = options.limitMb * UPLOAD_TOTAL_FACTOR * 1024 * 1024;
  let total = 0;
  const meter = () =>
    new Transform({
      transform(chunk: Buffer, _encoding, callback: TransformCallback) {
        total += chunk.length;
        try {
          if (total > totalLimit) throw new HttpError(400, totalTooLargeMessage(options.limitMb));
          if (now() > deadline) throw new HttpError(400, UPLOAD_TOO_SLOW_MESSAGE);
          options.reservation.ensure(total);
        } catch (error) {
          // Given back at once: a refused upload must not hold space while its request drains.
          options.reservation.release();
          callback(error as Error);
          return;
        }
        callback(null, chunk);
      },
    });
  await mkdir(options.directory, { recursive: true, mode: 0o700 });
  const files: StagedUpload[] = [];
  const cleanup = async () => {
    await Promise.all(files.map((file) => rm(file.path, { force: true })));
  };
  try {
    for await (const part of parts) {
      if (part.type !== 'file') continue;
      if (part.fieldname !== UPLOAD_FIELD) {
        part.file.resume();
        continue;
      }
      const name = part.filename;
      if (files.length === MAX_UPLOAD_FILES) {
        part.file.resume();
        throw new HttpError(400, TOO_MANY_FILES_MESSAGE);
      }
      if (!isPlainFileName(name)) {
        part.file.resume();
        throw new HttpError(400, invalidNameMessage(name));
      }
      const staged: StagedUpload = {
        name,
        path: path.join(options.directory, `upload-${randomUUID()}`),
        size: 0,
      };
      files.push(staged);
      const output = createWriteStream(staged.path, { flags: 'wx', mode: 0o600 });
      await pipeline(part.file, meter(), output);
      if (part.file.truncated) throw new HttpError(400, tooLargeMessage(name, options.limitMb));
      staged.size = output.bytesWritten;
    }
    if (files.length === 0) throw new HttpError(400, NO_FILES_MESSAGE);
    return { files, cleanup };
  } catch (error) {
    await cleanup();
    throw error;
  }
}

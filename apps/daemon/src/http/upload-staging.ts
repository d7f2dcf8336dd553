import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Multipart } from '@fastify/multipart';
import { HttpError } from './http-errors';

/** The multipart field the panel's page sends its files in (Wings' `files`). */
export const UPLOAD_FIELD = 'files';
export const NO_FILES_MESSAGE = 'No files were provided in the "files" field of the upload.';

export const invalidNameMessage = (name: string) =>
  `The file name ${JSON.stringify(name)} is not valid: it must be a plain name, without "/" or "..".`;
export const tooLargeMessage = (name: string, limitMb: number) =>
  `The file ${JSON.stringify(name)} is larger than the upload limit of ${limitMb} MiB.`;

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
 * The parts must be read with busboy's `preservePath` (else it would quietly strip `../` from names) and
 * `limits.fileSize` = the limit, without throwFileSizeLimit (the truncation is checked here, for a clear text).
 * @throws HttpError 400 (name, size, no files); the staged files are already removed then
 */
export async function stageUploads(
  parts: AsyncIterable<Multipart>,
  options: { directory: string; limitMb: number },
): Promise<StagedUploads> {
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
      await pipeline(part.file, output);
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

import { createReadStream } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type {
  RemoteBackupPartsResponse,
  RemoteBackupStatus,
} from '@aerie/shared/backups/backups-daemon-wire';

export interface PartUploadOptions {
  /** Tries per part (the first included). */
  attempts: number;
  firstRetryDelayMs: number;
  maxRetryDelayMs: number;
  /** One PUT's time limit (Wings: 2 h). */
  timeoutMs: number;
}

export const DEFAULT_PART_UPLOAD: PartUploadOptions = {
  attempts: 5,
  firstRetryDelayMs: 1000,
  maxRetryDelayMs: 60_000,
  timeoutMs: 2 * 60 * 60_000,
};

export class PartUploadError extends Error {
  override name = 'PartUploadError';
}

type UploadedPart = NonNullable<RemoteBackupStatus['parts']>[number];

/**
 * PUTs the archive at `file` (`size` bytes) to the panel's presigned UploadPart URLs: part N is bytes
 * `(N-1)·part_size` up to `part_size` of them (the last takes the rest), streamed from the file with
 * `Content-Type: application/x-gzip` and its exact `Content-Length`. 5xx answers and network failures are tried
 * again with exponential backoff (bounded); a 4xx is final. The daemon never holds S3 credentials.
 * @returns each part's ETag as the store answered it, in order
 * @throws PartUploadError naming the part and the store's answer
 */
export async function uploadParts(
  file: string,
  size: number,
  plan: RemoteBackupPartsResponse,
  options: PartUploadOptions = DEFAULT_PART_UPLOAD,
): Promise<UploadedPart[]> {
  const partSize = plan?.part_size;
  if (!Number.isSafeInteger(partSize) || partSize <= 0 || !Array.isArray(plan.parts)) {
    throw new PartUploadError('The panel did not send a usable upload plan (parts and part_size).');
  }
  const needed = size === 0 ? 1 : Math.ceil(size / partSize);
  if (plan.parts.length !== needed) {
    throw new PartUploadError(
      `The panel sent ${plan.parts.length} part URL(s) for an archive of ${size} bytes in parts of ${partSize} bytes (${needed} needed).`,
    );
  }
  const uploaded: UploadedPart[] = [];
  for (const [index, url] of plan.parts.entries()) {
    const start = index * partSize;
    const length = Math.min(partSize, size - start);
    const etag = await uploadPartWithRetries(url, file, start, length, index + 1, options);
    uploaded.push({ etag, part_number: index + 1 });
  }
  return uploaded;
}

async function uploadPartWithRetries(
  url: string,
  file: string,
  start: number,
  length: number,
  partNumber: number,
  options: PartUploadOptions,
): Promise<string> {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    throw new PartUploadError(`The URL of part ${partNumber} is not a URL.`);
  }
  if (target.protocol !== 'http:' && target.protocol !== 'https:') {
    throw new PartUploadError(`The URL of part ${partNumber} is not an http(s) URL.`);
  }
  let last = '';
  for (let attempt = 1; attempt <= options.attempts; attempt++) {
    try {
      const answer = await putSlice(target, file, start, length, options.timeoutMs);
      if (answer.status >= 200 && answer.status < 300) {
        if (!answer.etag) throw new PartUploadError(`The store answered part ${partNumber} without an ETag.`);
        return answer.etag;
      }
      last = `HTTP ${answer.status}: ${answer.body.slice(0, 300)}`;
      if (answer.status < 500) break;
    } catch (error) {
      if (error instanceof PartUploadError) throw error;
      last = error instanceof Error ? error.message : String(error);
    }
    if (attempt < options.attempts) {
      const delay = Math.min(options.firstRetryDelayMs * 2 ** (attempt - 1), options.maxRetryDelayMs);
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }
  throw new PartUploadError(`Uploading part ${partNumber} of the backup failed: ${last}`);
}

function putSlice(
  url: URL,
  file: string,
  start: number,
  length: number,
  timeoutMs: number,
): Promise<{ status: number; etag: string | undefined; body: string }> {
  return new Promise((resolve, reject) => {
    const request = (url.protocol === 'https:' ? https : http).request(url, {
      method: 'PUT',
      headers: { 'content-type': 'application/x-gzip', 'content-length': String(length) },
      timeout: timeoutMs,
    });
    request.on('timeout', () => request.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    request.on('error', reject);
    request.on('response', (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        if (body.length < 4096) body += chunk;
      });
      response.on('error', reject);
      response.on('end', () => {
        const etag = response.headers.etag;
        resolve({
          status: response.statusCode ?? 0,
          etag: typeof etag === 'string' ? etag : undefined,
          body,
        });
      });
    });
    if (length === 0) {
      request.end();
      return;
    }
    const slice = createReadStream(file, { start, end: start + length - 1 });
    slice.on('error', (error) => request.destroy(error));
    slice.pipe(request);
  });
}

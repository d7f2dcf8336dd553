import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { unlimitedQuota } from '@aerie/daemon/fs/disk-quota';
import { memoryQuota } from '@aerie/daemon/fs/fs-test-support';
import type { Multipart } from '@fastify/multipart';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  MAX_UPLOAD_FILES,
  stageUploads,
  TOO_MANY_FILES_MESSAGE,
  totalTooLargeMessage,
  UPLOAD_DEADLINE_MS,
  UPLOAD_TOO_SLOW_MESSAGE,
} from './upload-staging';

const MiB = 1024 * 1024;
let directory: string;

beforeEach(async () => {
  directory = await mkdtemp(path.join(tmpdir(), 'aerie-staging-'));
});
afterEach(async () => {
  await rm(directory, { recursive: true, force: true });
});

/** The parts of a multipart upload as @fastify/multipart hands them over: one `files` part per buffer. */
async function* parts(files: Buffer[], onPart?: (index: number) => void): AsyncGenerator<Multipart> {
  for (const [index, content] of files.entries()) {
    onPart?.(index);
    const file = Object.assign(Readable.from([content]), { truncated: false });
    yield { type: 'file', fieldname: 'files', filename: `part-${index}.bin`, file } as unknown as Multipart;
  }
}

const refusal = (message: string) => expect.objectContaining({ statusCode: 400, message });

describe('stageUploads bounds one request', () => {
  it(`refuses more than ${MAX_UPLOAD_FILES} files, keeping nothing staged`, async () => {
    const many = Array.from({ length: MAX_UPLOAD_FILES + 1 }, () => Buffer.from('x'));
    const reservation = await unlimitedQuota.reserve();
    await expect(stageUploads(parts(many), { directory, limitMb: 1, reservation })).rejects.toEqual(
      refusal(TOO_MANY_FILES_MESSAGE),
    );
    expect(await readdir(directory)).toEqual([]);
  });

  it('refuses files that add up to more than ten times the file limit', async () => {
    const eleven = Array.from({ length: 11 }, () => Buffer.alloc(MiB, 1));
    const reservation = await unlimitedQuota.reserve();
    await expect(stageUploads(parts(eleven), { directory, limitMb: 1, reservation })).rejects.toEqual(
      refusal(totalTooLargeMessage(1)),
    );
    expect(await readdir(directory)).toEqual([]);
  });

  it('stops an upload still arriving after the deadline', async () => {
    let clock = 0;
    const reservation = await unlimitedQuota.reserve();
    const slow = parts([Buffer.from('a'), Buffer.from('b')], (index) => {
      if (index === 1) clock += UPLOAD_DEADLINE_MS + 1;
    });
    await expect(
      stageUploads(slow, { directory, limitMb: 1, reservation, now: () => clock }),
    ).rejects.toEqual(refusal(UPLOAD_TOO_SLOW_MESSAGE));
    expect(await readdir(directory)).toEqual([]);
  });

  it('counts staged bytes against the quota and gives them back at once when refused', async () => {
    const quota = memoryQuota(2 * MiB);
    const reservation = await quota.reserve();
    const three = Array.from({ length: 3 }, () => Buffer.alloc(MiB, 1));
    await expect(stageUploads(parts(three), { directory, limitMb: 1, reservation })).rejects.toMatchObject({
      code: 'EQUOTA',
    });
    expect(quota.reservedBytes).toBe(0);
    expect(await readdir(directory)).toEqual([]);
  });
});

import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { PartUploadError, uploadParts } from './s3-upload';

let server: Server;
let base: string;
let directory: string;
const received: { url: string; type?: string; length?: string; body: Buffer }[] = [];
/** Status to answer per path, consumed in order; 200 with an ETag once empty. */
const script = new Map<string, number[]>();

const body = async (request: IncomingMessage) => {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
};

beforeAll(async () => {
  directory = await mkdtemp(path.join(tmpdir(), 'aerie-parts-'));
  server = createServer(async (request, response) => {
    const bytes = await body(request);
    received.push({
      url: request.url ?? '',
      type: request.headers['content-type'],
      length: request.headers['content-length'],
      body: bytes,
    });
    const status = script.get(request.url ?? '')?.shift() ?? 200;
    response.writeHead(status, status === 200 ? { etag: `"etag-${request.url?.slice(1)}"` } : {});
    response.end(status === 200 ? '' : 'try later');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await rm(directory, { recursive: true, force: true });
});

const options = { attempts: 3, firstRetryDelayMs: 5, maxRetryDelayMs: 20, timeoutMs: 5000 };

it('sends each slice with its exact length and gzip type, retrying 5xx, and returns the ETags in order', async () => {
  const data = randomBytes(2500);
  const file = path.join(directory, 'a.tar.gz');
  await writeFile(file, data);
  received.length = 0;
  script.set('/p2', [503, 500]);
  const parts = await uploadParts(
    file,
    data.length,
    { parts: [`${base}/p1`, `${base}/p2`, `${base}/p3`], part_size: 1000 },
    options,
  );
  expect(parts).toEqual([
    { etag: '"etag-p1"', part_number: 1 },
    { etag: '"etag-p2"', part_number: 2 },
    { etag: '"etag-p3"', part_number: 3 },
  ]);
  expect(received.map((r) => r.url)).toEqual(['/p1', '/p2', '/p2', '/p2', '/p3']);
  expect(received.every((r) => r.type === 'application/x-gzip')).toBe(true);
  expect(received.map((r) => r.length)).toEqual(['1000', '1000', '1000', '1000', '500']);
  const final = received.filter((_, index) => index !== 1 && index !== 2);
  expect(Buffer.concat(final.map((r) => r.body)).equals(data)).toBe(true);
});

it('gives up after the bounded tries on 5xx, at once on 4xx, and refuses a plan that does not fit', async () => {
  const file = path.join(directory, 'b.tar.gz');
  await writeFile(file, 'abc');
  received.length = 0;
  script.set('/down', [503, 503, 503, 503]);
  await expect(uploadParts(file, 3, { parts: [`${base}/down`], part_size: 10 }, options)).rejects.toThrow(
    /part 1 .*HTTP 503/,
  );
  expect(received.length).toBe(3);
  received.length = 0;
  script.set('/denied', [403]);
  await expect(uploadParts(file, 3, { parts: [`${base}/denied`], part_size: 10 }, options)).rejects.toThrow(
    PartUploadError,
  );
  expect(received.length).toBe(1);
  await expect(
    uploadParts(file, 3, { parts: [`${base}/a`, `${base}/b`], part_size: 10 }, options),
  ).rejects.toThrow(/2 part URL\(s\).*1 needed/);
});

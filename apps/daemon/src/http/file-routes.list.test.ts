import { closeSync, mkdirSync, openSync, readdirSync, readlinkSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { NODE_TOKEN } from '@aerie/daemon/testing/daemon-harness';
import { sleep } from '@aerie/daemon/websocket/testing/test-socket';
import type { DaemonFileStat } from '@aerie/shared/files/file-wire';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INVALID_PAGE_MESSAGE } from './list-page';
import { startTestApp, type TestApp } from './testing/test-app';

/** Issue 22 finding 7: a 300,000-entry listing took 24 s and 73 MB, and four at once grew the daemon to 1.1 GB. */
const UUID = '9c8b7a69-5847-4362-8150-4f3e2d1c0b9a';
const FILES = 300_000;
let daemon: TestApp;
let big: string;
/** The status of every list-directory answer, as the daemon sent it (the client may be gone by then). */
const listStatuses: number[] = [];

const fileName = (index: number) => `file-${String(index).padStart(6, '0')}`;

beforeAll(async () => {
  daemon = await startTestApp(UUID, {
    beforeListen: (app) =>
      app.addHook('onSend', async (request, reply, payload) => {
        if (request.url.includes('/files/list-directory')) listStatuses.push(reply.statusCode);
        return payload;
      }),
  });
  big = path.join(daemon.root, 'big');
  mkdirSync(big);
  // Empty files without an extension: the listing must sniff each one it describes, the costliest kind.
  for (let index = 0; index < FILES; index += 1) closeSync(openSync(path.join(big, fileName(index)), 'w'));
  for (const name of ['dir-c', 'dir-a', 'dir-b']) mkdirSync(path.join(big, name));
}, 120_000);
afterAll(async () => {
  await daemon?.close();
}, 60_000);

async function list(directory: string, query = '') {
  const response = await fetch(
    `${daemon.url}/api/servers/${UUID}/files/list-directory?directory=${encodeURIComponent(directory)}${query}`,
    { headers: { authorization: `Bearer ${NODE_TOKEN}` } },
  );
  return { status: response.status, body: (await response.json()) as DaemonFileStat[] | { error: string } };
}
const names = (body: unknown) => (body as DaemonFileStat[]).map((entry) => entry.name);

/** Descriptors this process (the daemon, in-process) holds open on `directory`. */
function descriptorsOn(directory: string): number {
  return readdirSync('/proc/self/fd').filter((fd) => {
    try {
      return readlinkSync(`/proc/self/fd/${fd}`) === directory;
    } catch {
      return false;
    }
  }).length;
}

async function until(check: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not reached in time');
    await sleep(5);
  }
}

describe('GET …/files/list-directory of a 300,000-entry directory', () => {
  it('answers its first 1000 entries in order, quickly, four at once, with the heap bounded', async () => {
    const heapBefore = process.memoryUsage().heapUsed;
    let heapPeak = heapBefore;
    const sampler = setInterval(() => {
      heapPeak = Math.max(heapPeak, process.memoryUsage().heapUsed);
    }, 5);
    const startedAt = Date.now();
    const answers = await Promise.all([1, 2, 3, 4].map(() => list('/big')));
    const elapsed = Date.now() - startedAt;
    clearInterval(sampler);

    for (const answer of answers) {
      expect(answer.status).toBe(200);
      expect(answer.body).toHaveLength(1000);
    }
    const listed = names(answers[0]?.body);
    expect(listed.slice(0, 5)).toEqual(['dir-a', 'dir-b', 'dir-c', fileName(0), fileName(1)]);
    expect(listed.at(-1)).toBe(fileName(996));
    const entries = (answers[0]?.body ?? []) as DaemonFileStat[];
    expect(entries[3]).toMatchObject({
      name: fileName(0),
      file: true,
      directory: false,
      symlink: false,
      size: 0,
      mode_bits: '644',
    });
    // Loose guards, not benchmarks: the walk itself is a fraction of a second here.
    expect(elapsed).toBeLessThan(15_000);
    expect(heapPeak - heapBefore).toBeLessThan(64 * 1024 * 1024);
  }, 60_000);

  it('pages through it with ?page=&per_page=, in the same order', async () => {
    const first = names((await list('/big', '&per_page=1000')).body);
    const third = await list('/big', '&page=3&per_page=100');
    expect(third.status).toBe(200);
    expect(names(third.body)).toEqual(first.slice(200, 300));
    const deep = await list('/big', '&page=10&per_page=1000');
    expect(names(deep.body)[0]).toBe(fileName(9000 - 3));
  }, 60_000);

  it('refuses a page it will not walk to, or that is not a page', async () => {
    for (const query of [
      '&per_page=1001',
      '&page=11&per_page=1000',
      '&page=0',
      '&page=abc',
      '&per_page=-5',
    ]) {
      expect(await list('/big', query), query).toEqual({
        status: 400,
        body: { error: INVALID_PAGE_MESSAGE },
      });
    }
  });

  it('stops the walk when the caller goes away', async () => {
    const answered = listStatuses.length;
    const client = net.connect({ host: '127.0.0.1', port: daemon.port });
    await new Promise((resolve) => client.once('connect', resolve));
    client.write(
      `GET /api/servers/${UUID}/files/list-directory?directory=%2Fbig HTTP/1.1\r\nHost: daemon\r\n` +
        `Authorization: Bearer ${NODE_TOKEN}\r\n\r\n`,
    );
    // The walk has begun once the daemon holds the directory open; then the caller hangs up.
    await until(() => descriptorsOn(big) > 0, 10_000);
    client.destroy();
    await until(() => listStatuses.length > answered, 10_000);
    expect(listStatuses.at(-1)).toBe(499);
    expect(descriptorsOn(big)).toBe(0);
  }, 30_000);

  it('lists a small directory whole, as a plain array', async () => {
    expect(await list('/')).toMatchObject({ status: 200, body: [{ name: 'big', directory: true }] });
  });
});

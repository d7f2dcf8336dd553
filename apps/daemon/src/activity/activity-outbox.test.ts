import { randomUUID } from 'node:crypto';
import { appendFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PanelClient } from '@aerie/daemon/panel-client/panel-client';
import type { RemoteActivityBody, RemoteActivityRow } from '@aerie/shared/activity/remote-activity-wire';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ActivityOutbox } from './activity-outbox';
import { ActivityShipper, shipDelay } from './activity-shipper';

/**
 * The activity outbox on a real file, shipped by the real panel client to a real HTTP server standing in for the
 * panel: rows survive a reopen (and a torn last line), the cap holds, and rows leave only once the panel took them
 * (2xx) or refused them (4xx); a 500 or no answer keeps them.
 */

let directory: string;
let file: string;
const warnings: string[] = [];
const log = { warn: (line: string) => warnings.push(line) };

/** The panel stand-in: every body it was sent, answered with `status`. */
let panel: Server;
let panelUrl: string;
let status = 204;
const received: RemoteActivityBody[] = [];

const user = randomUUID();
const server = randomUUID();
const row = (overrides: Partial<RemoteActivityRow> = {}): RemoteActivityRow => ({
  user,
  server,
  event: 'server:sftp.write',
  metadata: { files: ['/a.txt'] },
  ip: '198.51.100.7',
  timestamp: '2026-03-01T10:00:00.000Z',
  ...overrides,
});
const open = (maxPending?: number) =>
  ActivityOutbox.open({ file, log, ...(maxPending ? { maxPending } : {}) });
const shipperFor = (outbox: ActivityOutbox) =>
  new ActivityShipper({
    outbox,
    panel: new PanelClient({ url: panelUrl, tokenId: 'id', token: 'token-0123456789abcdef' }),
    intervalMs: 60_000,
    log,
  });
const linesOnDisk = async () => (await readFile(file, 'utf8')).split('\n').filter(Boolean);

beforeAll(async () => {
  panel = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => {
      body += chunk;
    });
    request.on('end', () => {
      if (request.url === '/api/remote/activity') received.push(JSON.parse(body));
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(status === 204 ? '' : JSON.stringify({ errors: [{ detail: `Answered ${status}.` }] }));
    });
  });
  await new Promise<void>((resolve) => panel.listen(0, '127.0.0.1', resolve));
  const address = panel.address();
  panelUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
});
afterAll(() => new Promise<void>((resolve) => panel.close(() => resolve())));
beforeEach(async () => {
  directory = await mkdtemp(path.join(tmpdir(), 'aerie-activity-'));
  file = path.join(directory, 'activity-outbox.jsonl');
  warnings.length = 0;
  received.length = 0;
  status = 204;
});
afterEach(() => rm(directory, { recursive: true, force: true }));

describe('the outbox file', () => {
  it('keeps rows across a reopen, in order', async () => {
    const first = await open();
    first.append(row({ metadata: { files: ['/one'] } }));
    first.append(row({ metadata: { files: ['/two'] } }));
    await first.settled();
    const again = await open();
    expect(again.pending.map((entry) => entry.row.metadata)).toEqual([
      { files: ['/one'] },
      { files: ['/two'] },
    ]);
  });

  it('skips a torn last line (a kill mid-write) and unreadable ones, and appends cleanly after', async () => {
    const whole = JSON.stringify(row({ metadata: { files: ['/whole'] } }));
    const torn = JSON.stringify(row({ metadata: { files: ['/torn'] } })).slice(0, 40);
    await writeFile(file, `${whole}\nnot json\n${JSON.stringify({ event: 'server:power.start' })}\n${torn}`);
    const outbox = await open();
    expect(outbox.pending.map((entry) => entry.row.metadata)).toEqual([{ files: ['/whole'] }]);
    expect(warnings.join('\n')).toContain('skipped 3 unreadable line(s)');
    outbox.append(row({ metadata: { files: ['/after'] } }));
    await outbox.settled();
    expect((await open()).pending.map((entry) => entry.row.metadata)).toEqual([
      { files: ['/whole'] },
      { files: ['/after'] },
    ]);
  });

  it('holds at most maxPending rows, dropping the oldest with a log line, in memory and on disk', async () => {
    const outbox = await open(5);
    for (let i = 0; i < 23; i++) outbox.append(row({ metadata: { files: [`/f${i}`] } }));
    await outbox.settled();
    expect(outbox.size).toBe(5);
    expect(outbox.pending.map((entry) => entry.row.metadata)).toEqual(
      [18, 19, 20, 21, 22].map((i) => ({ files: [`/f${i}`] })),
    );
    expect(outbox.dropped).toBe(18);
    expect(warnings.join('\n')).toContain('Activity outbox full (5 rows waiting for the panel)');
    // The file never holds more than twice the cap, and reopening keeps the newest rows.
    expect((await linesOnDisk()).length).toBeLessThanOrEqual(10);
    expect((await open(5)).pending.map((entry) => entry.row.metadata)).toEqual(
      outbox.pending.map((e) => e.row.metadata),
    );
    // A file left bigger than the cap (a larger cap before) is cut to the newest rows at load.
    await appendFile(file, `${JSON.stringify(row({ metadata: { files: ['/late'] } }))}\n`);
    const smaller = await open(2);
    expect(smaller.pending.map((entry) => entry.row.metadata)).toEqual([
      { files: ['/f22'] },
      { files: ['/late'] },
    ]);
    expect(await linesOnDisk()).toHaveLength(2);
  });

  it('leaves out a row the panel would refuse', async () => {
    const outbox = await open();
    outbox.append(row({ event: 'server:power.start' as RemoteActivityRow['event'] }));
    outbox.append(row({ metadata: { files: [`/${'x'.repeat(5000)}`] } }));
    outbox.append(row({ ip: 'not an address' }));
    expect(outbox.size).toBe(0);
  });
});

describe('shipping to the panel', () => {
  it('removes the rows the panel took, merged one row per user, server, address, event and minute', async () => {
    const outbox = await open();
    for (const name of ['/a', '/b', '/a', '/c']) outbox.append(row({ metadata: { files: [name] } }));
    outbox.append(row({ event: 'server:sftp.delete', metadata: { files: ['/old'] } }));
    outbox.append(row({ metadata: { files: ['/later'] }, timestamp: '2026-03-01T10:01:00.000Z' }));
    outbox.append(row({ event: 'server:sftp.login', metadata: {} }));
    expect(await shipperFor(outbox).shipOnce()).toBe('sent');
    expect(received).toHaveLength(1);
    expect(received[0]?.data.map((item) => [item.event, item.metadata, item.timestamp])).toEqual([
      ['server:sftp.write', { files: ['/a', '/b', '/c'] }, '2026-03-01T10:00:00.000Z'],
      ['server:sftp.delete', { files: ['/old'] }, '2026-03-01T10:00:00.000Z'],
      ['server:sftp.write', { files: ['/later'] }, '2026-03-01T10:01:00.000Z'],
      ['server:sftp.login', {}, '2026-03-01T10:00:00.000Z'],
    ]);
    expect(outbox.size).toBe(0);
    await outbox.settled();
    expect(await linesOnDisk()).toEqual([]);
  });

  it('sends at most 100 rows and 50 paths a row per request; the rest go in the next one', async () => {
    const outbox = await open();
    for (let i = 0; i < 160; i++) {
      outbox.append(row({ user: randomUUID(), metadata: { files: [`/u${i}`] } }));
    }
    for (let i = 0; i < 120; i++)
      outbox.append(row({ event: 'server:sftp.delete', metadata: { files: [`/d${i}`] } }));
    await shipperFor(outbox).run();
    expect(received.map((body) => body.data.length)).toEqual([100, 63]);
    const deletes = received[1]?.data.filter((item) => item.event === 'server:sftp.delete') ?? [];
    expect(deletes.map((item) => (item.metadata as { files: string[] }).files.length)).toEqual([50, 50, 20]);
    expect(outbox.size).toBe(0);
  });

  it('keeps the rows when the panel answers 500 or does not answer, and ships them later', async () => {
    const outbox = await open();
    outbox.append(row());
    status = 500;
    expect(await shipperFor(outbox).shipOnce()).toBe('failed');
    expect(outbox.size).toBe(1);
    await outbox.settled();
    expect(await linesOnDisk()).toHaveLength(1);

    const unreachable = new ActivityShipper({
      outbox,
      panel: new PanelClient({ url: 'http://127.0.0.1:1', tokenId: 'id', token: 'token-0123456789abcdef' }),
      intervalMs: 60_000,
      log,
    });
    expect(await unreachable.shipOnce()).toBe('failed');
    expect((await open()).size).toBe(1);

    status = 204;
    expect(await shipperFor(outbox).shipOnce()).toBe('sent');
    expect(outbox.size).toBe(0);
    expect(received).toHaveLength(2);
  });

  it('drops a batch the panel refuses with a 4xx, saying so, rather than sending it forever', async () => {
    const outbox = await open();
    outbox.append(row());
    outbox.append(row({ event: 'server:sftp.delete' }));
    status = 422;
    expect(await shipperFor(outbox).shipOnce()).toBe('refused');
    expect(outbox.size).toBe(0);
    expect(warnings.join('\n')).toContain('the panel refused 2 row(s)');
    await outbox.settled();
    expect(await linesOnDisk()).toEqual([]);
    expect(await shipperFor(outbox).shipOnce()).toBe('empty');
  });

  it('waits twice as long after each failed shipment, up to ten minutes', () => {
    expect([0, 1, 2, 3, 4, 5, 40].map((failures) => shipDelay(60_000, failures))).toEqual([
      60_000, 120_000, 240_000, 480_000, 600_000, 600_000, 600_000,
    ]);
    expect(shipDelay(50, 3)).toBe(400);
  });
});

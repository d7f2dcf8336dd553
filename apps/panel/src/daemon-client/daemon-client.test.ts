import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import { SecretBox } from '@aerie/panel/crypto/secret-box';
import { startDaemonStandIn } from '@aerie/panel/test/daemon-stand-in';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DaemonClient, type DaemonNode, DaemonResponseError, DaemonUnreachableError } from './daemon-client';
import { CONNECTIONS_PER_DAEMON } from './daemon-transport';

const secretBox = new SecretBox(randomBytes(32));
const token = 'n'.repeat(64);
const uuid = '6f1c3a52-8d7e-4a4b-9c1d-2e3f4a5b6c7d';
let daemon: Awaited<ReturnType<typeof startDaemonStandIn>>;
let node: DaemonNode;
const client = new DaemonClient(secretBox, { timeoutMs: 2000 });

beforeAll(async () => {
  daemon = await startDaemonStandIn({
    token,
    answer: (call) =>
      call.url.endsWith('/missing/power')
        ? { status: 404, body: { error: 'The requested resource does not exist on this instance.' } }
        : call.url === '/api/system'
          ? { status: 200, body: { version: '1.0.0' } }
          : call.path.endsWith('/files/contents')
            ? { status: 200, headers: { 'x-mime-type': 'text/plain' }, body: Buffer.from('raw\x00bytes') }
            : { status: 202 },
  });
  node = {
    name: 'Stand-in',
    scheme: 'http',
    fqdn: '127.0.0.1',
    daemonListen: daemon.port,
    daemonToken: secretBox.seal(token),
  };
});
afterAll(() => daemon.close());

describe('DaemonClient', () => {
  it("sends Wings' requests with the node token alone", async () => {
    expect(await client.system(node)).toEqual({ version: '1.0.0' });
    await client.forServer(node, uuid).power('restart');
    await client.forServer(node, uuid).commands(['say hi', 'list']);
    await client.forServer(node, uuid).create(true);
    await client.forServer(node, uuid).install();
    await client.forServer(node, uuid).reinstall();
    await client.forServer(node, uuid).deny({ jtis: ['abc', 'def'] });
    await client.forServer(node, uuid).deny({ jtis: ['abc'], user_uuids: ['u-1'] });
    await client.denyUsers(node, ['u-1', 'u-2']);
    await client.forServer(node, uuid).sync();
    expect(daemon.calls.map(({ method, url, body }) => [method, url, body])).toEqual([
      ['GET', '/api/system', undefined],
      ['POST', `/api/servers/${uuid}/power`, { action: 'restart' }],
      ['POST', `/api/servers/${uuid}/commands`, { commands: ['say hi', 'list'] }],
      ['POST', '/api/servers', { uuid, start_on_completion: true }],
      ['POST', `/api/servers/${uuid}/install`, undefined],
      ['POST', `/api/servers/${uuid}/reinstall`, undefined],
      ['POST', `/api/servers/${uuid}/ws/deny`, { jtis: ['abc', 'def'] }],
      ['POST', `/api/servers/${uuid}/ws/deny`, { jtis: ['abc'], user_uuids: ['u-1'] }],
      ['POST', '/api/deny', { user_uuids: ['u-1', 'u-2'] }],
      ['POST', `/api/servers/${uuid}/sync`, undefined],
    ]);
    for (const call of daemon.calls) expect(call.headers.authorization).toBe(`Bearer ${token}`);
  });

  it("sends Wings' transfer calls: the source's start and cancel, the target's cancel of an incoming one", async () => {
    daemon.calls.length = 0;
    const body = {
      url: 'http://target.test:8080/api/transfers',
      token: 'Bearer jwt',
      server: { uuid, start_on_completion: false },
    };
    await client.startTransfer(node, uuid, body);
    await client.cancelTransfer(node, uuid);
    await client.cancelIncomingTransfer(node, uuid);
    expect(daemon.calls.map(({ method, url, body }) => [method, url, body])).toEqual([
      ['POST', `/api/servers/${uuid}/transfer`, body],
      ['DELETE', `/api/servers/${uuid}/transfer`, undefined],
      ['DELETE', `/api/transfers/${uuid}`, undefined],
    ]);
  });

  it("throws the daemon's error with its status, and tells an unreachable daemon apart", async () => {
    const refused = await client
      .forServer(node, 'missing')
      .power('start')
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(DaemonResponseError);
    expect(refused).toMatchObject({
      status: 404,
      message: 'The requested resource does not exist on this instance.',
    });
    const wrong = { ...node, daemonToken: secretBox.seal('another token') };
    await expect(client.forServer(wrong, uuid).power('start')).rejects.toMatchObject({ status: 403 });
    const down = { ...node, daemonListen: 1 };
    await expect(client.forServer(down, uuid).power('start')).rejects.toBeInstanceOf(DaemonUnreachableError);
  });

  it('leaves a file body nobody reads harmless when the daemon goes mid-answer, and its reader still sees why', async () => {
    // Half an answer, then the connection is gone: what an unread body meets when its time-out fires too.
    const dying = createServer((_request, response) => {
      response.writeHead(200, { 'content-length': '1000' });
      response.write('partial');
      setTimeout(() => response.socket?.destroy(), 50);
    });
    await new Promise<void>((resolve) => dying.listen(0, '127.0.0.1', resolve));
    const port = (dying.address() as { port: number }).port;
    try {
      const dyingNode = { ...node, daemonListen: port };
      const abandoned = await client.forServer(dyingNode, uuid).files.contents('/a.txt');
      const read = await client.forServer(dyingNode, uuid).files.contents('/a.txt');
      // The abandoned one errors with nobody reading: an uncaught error here fails the run (and used to end the
      // panel's process).
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(abandoned.status).toBe(200);
      await expect(
        (async () => {
          for await (const _chunk of read.body) {
            // reading until the daemon goes
          }
        })(),
      ).rejects.toThrow();
    } finally {
      dying.close();
    }
  });

  it("streams file contents with the answer's headers, and sends a write with its length", async () => {
    const contents = await client.forServer(node, uuid).files.contents('/a b.txt');
    expect(contents.status).toBe(200);
    expect(contents.headers.get('content-length')).toBe('9');
    expect(contents.headers.get('x-mime-type')).toBe('text/plain');
    const chunks: Buffer[] = [];
    for await (const chunk of contents.body) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).toString('latin1')).toBe('raw\x00bytes');
    expect(daemon.calls.at(-1)).toMatchObject({ method: 'GET', query: { file: '/a b.txt' } });

    await client.forServer(node, uuid).files.write('x.bin', Buffer.from([0, 1, 2]));
    const write = daemon.calls.at(-1);
    expect(write).toMatchObject({
      method: 'POST',
      path: `/api/servers/${uuid}/files/write`,
      query: { file: 'x.bin' },
    });
    expect(write?.headers['content-length']).toBe('3');
    expect(write?.body).toEqual(Buffer.from([0, 1, 2]));
  });

  it('opens at most CONNECTIONS_PER_DAEMON connections to a daemon, whatever asks: 300 calls at once all answered', async () => {
    let open = 0;
    let most = 0;
    // Each answer takes a while, so the calls pile up as they do on a loaded panel.
    const slow = createServer((_request, response) => {
      setTimeout(() => response.end('{"version":"1.0.0"}'), 20);
    });
    slow.on('connection', (socket) => {
      open += 1;
      most = Math.max(most, open);
      socket.once('close', () => {
        open -= 1;
      });
    });
    await new Promise<void>((resolve) => slow.listen(0, '127.0.0.1', resolve));
    try {
      const slowNode = { ...node, daemonListen: (slow.address() as { port: number }).port };
      const another = new DaemonClient(secretBox, { timeoutMs: 10_000 });
      const answers = await Promise.all(
        Array.from({ length: 300 }, (_, index) => (index % 2 ? client : another).system(slowNode)),
      );
      expect(answers.every((answer) => answer.version === '1.0.0')).toBe(true);
      expect(most).toBe(CONNECTIONS_PER_DAEMON);
    } finally {
      slow.closeAllConnections();
      slow.close();
    }
  });
});

import { randomBytes, randomUUID } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, connectClient, openSftp, type SftpStand, startSftpStand } from './testing/sftp-stand';

/**
 * Bounds and hostile input: a malformed or truncated packet ends that one connection (Wings panicked,
 * CVE-2026-52856), connections are capped per address, and silent or idle ones are closed.
 */
let stand: SftpStand;
const alice = { uuid: randomUUID(), password: 'alice-pw', keys: [], permissions: ['*'] };
const user = () => `alice.${stand.server.id}`;

beforeAll(async () => {
  stand = await startSftpStand({
    limits: { loginTimeoutMs: 800, idleTimeoutMs: 1500, maxConnectionsPerAddress: 6, maxUnsentAnswers: 16 },
  });
  stand.accounts.set('alice', alice);
});
afterAll(() => stand?.close());

/** A raw TCP connection; resolves with what the server sent once it closes it (or after `ms`, still open). */
function rawConnection(send: Buffer[], ms = 3000): Promise<{ closed: boolean; received: Buffer }> {
  return new Promise((resolve) => {
    const socket = net.connect(stand.port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', () => {});
    const timer = setTimeout(() => {
      socket.destroy();
      resolve({ closed: false, received: Buffer.concat(chunks) });
    }, ms);
    socket.on('close', () => {
      clearTimeout(timer);
      resolve({ closed: true, received: Buffer.concat(chunks) });
    });
    socket.on('connect', () => {
      for (const data of send) socket.write(data);
    });
  });
}

/** An SSH binary packet without encryption (as during the first key exchange) carrying `payload`. */
function packet(payload: Buffer, claimedLength?: number): Buffer {
  const padding = 8 - ((5 + payload.length) % 8) + 4;
  const length = claimedLength ?? 1 + payload.length + padding;
  const header = Buffer.alloc(5);
  header.writeUInt32BE(length);
  header[4] = padding;
  return Buffer.concat([header, payload, Buffer.alloc(padding)]);
}

describe('hostile and broken clients', () => {
  it('closes a truncated or malformed handshake and keeps serving everyone else', async () => {
    const session = await openSftp(stand.port, { username: user(), password: 'alice-pw' });
    const ident = Buffer.from('SSH-2.0-Broken_1.0\r\n');
    // KEXINIT (20) whose first name-list claims 4000 bytes but the packet ends after 10.
    const truncatedKexinit = Buffer.concat([
      Buffer.from([20]),
      Buffer.alloc(16),
      Buffer.from([0, 0, 0x0f, 0xa0]),
    ]);
    const cases = [
      [ident, packet(truncatedKexinit)],
      [ident, packet(Buffer.from([20, 1, 2]), 3)],
      [ident, Buffer.from([0xff, 0xff, 0xff, 0xff, 0x00, 0x01])],
      [Buffer.from('GET / HTTP/1.1\r\nHost: x\r\n\r\n')],
      [Buffer.from('SSH-1.5-Ancient\r\n')],
    ];
    for (const send of cases) {
      const outcome = await rawConnection(send);
      expect(outcome.closed).toBe(true);
    }
    // The logged-in session never noticed; a new login works.
    expect(await call(session.sftp, 'realpath', '.')).toBe('/');
    const another = await openSftp(stand.port, { username: user(), password: 'alice-pw' });
    expect(await call(another.sftp, 'realpath', '.')).toBe('/');
    session.end();
    another.end();
  });

  it('ends a connection whose subsystem request is cut short (CVE-2026-52856), only that one', async () => {
    const session = await openSftp(stand.port, { username: user(), password: 'alice-pw' });
    const victim = await connectClient(stand.port, { username: user(), password: 'alice-pw' });
    const closed = new Promise<void>((resolve) => victim.once('close', () => resolve()));
    // CHANNEL_REQUEST "subsystem" with want-reply and no subsystem name, sent through ssh2's own transport.
    // biome-ignore lint/suspicious/noExplicitAny: ssh2's packet writer is internal; nothing public sends a bad packet.
    const protocol = (victim as any)._protocol;
    const start = protocol._packetRW.write.allocStart;
    const request = protocol._packetRW.write.alloc(1 + 4 + 4 + 9 + 1);
    request[start] = 98;
    request.writeUInt32BE(0, start + 1);
    request.writeUInt32BE(9, start + 5);
    request.write('subsystem', start + 9, 'ascii');
    request[start + 18] = 1;
    protocol._cipher.encrypt(protocol._packetRW.write.finalize(request));
    await closed;
    expect(await call(session.sftp, 'realpath', '.')).toBe('/');
    session.end();
  });

  it('closes a connection that never logs in within the login time-out', async () => {
    const silent = await rawConnection([], 3000);
    expect(silent.closed).toBe(true);
    expect(silent.received.toString()).toMatch(/^SSH-2\.0-Aerie_SFTP/);
    const identOnly = await rawConnection([Buffer.from('SSH-2.0-Slow_1.0\r\n')], 3000);
    expect(identOnly.closed).toBe(true);
  });

  it('caps the connections of one address', async () => {
    const sockets = await Promise.all(
      Array.from(
        { length: 6 },
        () =>
          new Promise<net.Socket>((resolve) => {
            const socket = net.connect(stand.port, '127.0.0.1', () => resolve(socket));
            socket.on('error', () => {});
          }),
      ),
    );
    await expect.poll(() => stand.sftp.connections).toBe(6);
    const seventh = await rawConnection([], 1000);
    expect(seventh).toEqual({ closed: true, received: Buffer.alloc(0) });
    for (const socket of sockets) socket.destroy();
    await expect.poll(() => stand.sftp.connections).toBe(0);
  });

  it('closes a client that keeps asking while it reads none of the answers', async () => {
    await writeFile(path.join(stand.server.root, 'large.bin'), randomBytes(16 * 1024 * 1024));
    const session = await openSftp(stand.port, { username: user(), password: 'alice-pw' });
    const handle = await call<Buffer>(session.sftp, 'open', '/large.bin', 'r');
    await expect.poll(() => stand.sftp.registry.count).toBe(1);
    // biome-ignore lint/suspicious/noExplicitAny: the client's socket is internal; pausing it is what a stalled client does.
    (session.client as any)._sock.pause();
    for (let i = 0; i < 512; i++) {
      session.sftp.read(handle, Buffer.alloc(32 * 1024), 0, 32 * 1024, i * 32 * 1024, () => {});
    }
    await expect.poll(() => stand.sftp.registry.count, { timeout: 10_000 }).toBe(0);
    expect(stand.logs.at(-1)).toMatch(/closed: the client stopped reading its answers$/);
    await expect.poll(() => stand.sftp.connections, { timeout: 10_000 }).toBe(0);
  });

  it('closes a logged-in connection left idle', async () => {
    const session = await openSftp(stand.port, { username: user(), password: 'alice-pw' });
    const started = Date.now();
    await session.closed;
    expect(Date.now() - started).toBeGreaterThanOrEqual(1400);
  });
});

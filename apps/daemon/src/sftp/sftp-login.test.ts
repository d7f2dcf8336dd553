import { randomUUID } from 'node:crypto';
import type ssh2 from 'ssh2';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { generateEd25519KeyPair } from './ed25519-key';
import { call, connectClient, openSftp, type SftpStand, startSftpStand } from './testing/sftp-stand';

/** Logging in: the username's form, password and key through the panel, its refusals, and what a login may open. */
let stand: SftpStand;
const key = generateEd25519KeyPair();
const strangerKey = generateEd25519KeyPair();
const alice = { uuid: randomUUID(), password: 'alice-pw', keys: [key.public], permissions: ['*'] };
const user = () => `alice.${stand.server.id}`;
const refused = (promise: Promise<unknown>) =>
  promise.then(
    () => 'logged in',
    (error: Error) => error.message,
  );

beforeAll(async () => {
  stand = await startSftpStand();
  stand.accounts.set('alice', alice);
});
afterAll(() => stand?.close());
beforeEach(() => {
  stand.panel.sftpLogins.length = 0;
});

describe('logging in', () => {
  it('takes the panel password and tells the panel the client address and the full username', async () => {
    const client = await openSftp(stand.port, { username: user(), password: 'alice-pw' });
    expect(await call(client.sftp, 'realpath', '.')).toBe('/');
    client.end();
    expect(stand.panel.sftpLogins).toEqual([
      expect.objectContaining({ type: 'password', username: user(), password: 'alice-pw', ip: '127.0.0.1' }),
    ]);
  });

  it("takes a key of the user's account, proven by its signature, and refuses any other", async () => {
    const client = await openSftp(stand.port, { username: user(), privateKey: key.private });
    expect(await call(client.sftp, 'realpath', '.')).toBe('/');
    client.end();
    const sent = stand.panel.sftpLogins.filter((body) => body.type === 'public_key');
    expect(sent.length).toBeGreaterThan(0);
    expect(sent[0]?.password).toBe(key.public.split(' ').slice(0, 2).join(' '));
    expect(
      await refused(connectClient(stand.port, { username: user(), privateKey: strangerKey.private })),
    ).toMatch(/authentication methods failed/);
  });

  it('refuses a wrong password and a username not of the form user.server, the latter without asking the panel', async () => {
    expect(await refused(connectClient(stand.port, { username: user(), password: 'wrong' }))).toMatch(
      /authentication methods failed/,
    );
    expect(stand.panel.sftpLogins.length).toBe(1);
    for (const username of ['root', 'alice', `alice.${stand.server.id}x`, '.abcdefgh', 'alice.zzzzzzzz']) {
      expect(await refused(connectClient(stand.port, { username, password: 'alice-pw' }))).toMatch(
        /authentication methods failed/,
      );
    }
    expect(stand.panel.sftpLogins.length).toBe(1);
  });

  it('refuses while the panel throttles (429) or cannot answer', async () => {
    const decide = stand.panel.sftpAuth;
    stand.panel.sftpAuth = () => ({
      status: 429,
      body: { errors: [{ detail: 'Too many login attempts.' }] },
    });
    expect(await refused(connectClient(stand.port, { username: user(), password: 'alice-pw' }))).toMatch(
      /authentication methods failed/,
    );
    stand.panel.sftpAuth = () => ({ status: 500, body: {} });
    expect(await refused(connectClient(stand.port, { username: user(), password: 'alice-pw' }))).toMatch(
      /authentication methods failed/,
    );
    stand.panel.sftpAuth = decide;
  });

  it('closes a connection after 6 authentication attempts', async () => {
    let offered = 0;
    const outcome = await refused(
      connectClient(stand.port, {
        username: user(),
        authHandler: (_methods, _partial, next) => {
          offered++;
          // biome-ignore lint/suspicious/noExplicitAny: ssh2's callback takes an auth object.
          (next as (auth: any) => void)({ type: 'password', username: user(), password: `guess-${offered}` });
        },
      }),
    );
    expect(outcome).not.toBe('logged in');
    expect(stand.panel.sftpLogins.length).toBe(6);
  });

  it('refuses shell, exec, port forwarding and a second sftp subsystem on a logged-in connection', async () => {
    const client = await connectClient(stand.port, { username: user(), password: 'alice-pw' });
    const outcome = (run: (done: (error?: Error) => void) => void) =>
      new Promise<string>((resolve) => run((error) => resolve(error ? 'refused' : 'accepted')));
    expect(await outcome((done) => client.exec('id', (error) => done(error)))).toBe('refused');
    expect(await outcome((done) => client.shell((error) => done(error)))).toBe('refused');
    expect(await outcome((done) => client.forwardOut('127.0.0.1', 1, '127.0.0.1', 22, (e) => done(e)))).toBe(
      'refused',
    );
    expect(await outcome((done) => client.forwardIn('127.0.0.1', 0, (error) => done(error)))).toBe('refused');
    expect(await outcome((done) => client.subsys('other', (error) => done(error)))).toBe('refused');
    const sftp = await new Promise<ssh2.SFTPWrapper>((resolve, reject) =>
      client.sftp((error, channel) => (error ? reject(error) : resolve(channel))),
    );
    expect(await call(sftp, 'realpath', '/')).toBe('/');
    client.end();
  });
});

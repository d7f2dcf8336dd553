import { generateKeyPairSync } from 'node:crypto';
import { TestBrowser } from '@aerie/panel/test/browser';
import { buildTestApp, type TestApp } from '@aerie/panel/test/build-test-app';
import { createTestUser } from '@aerie/panel/test/factories';
import { ed25519KeyPair, sshKeyPair } from '@aerie/panel/test/ssh-key-pair';
import { sshKeyMessages } from '@aerie/shared/ssh-keys/ssh-keys-wire';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseSshPublicKey, type SshPublicKey } from './ssh-public-key';

/** The account SSH key routes, case by case as Pterodactyl's SSHKeyControllerTest (reference §10). */
let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

async function signedIn() {
  const { user, password } = await createTestUser(t.ctx);
  const browser = new TestBrowser(t.app);
  await browser.signIn(user.username, password);
  return { user, browser };
}

/** A fresh key as PKCS#8 PEM, the form the reference's factory makes and the answer gives back. */
const pemKey = (type: 'ed25519' | 'rsa' = 'ed25519', bits = 2048) =>
  (type === 'rsa'
    ? generateKeyPairSync('rsa', { modulusLength: bits })
    : generateKeyPairSync('ed25519')
  ).publicKey
    .export({ type: 'spki', format: 'pem' })
    .toString();

const keysOf = (userId: number) =>
  t.db.selectFrom('user_ssh_keys').selectAll().where('user_id', '=', userId).orderBy('id').execute();

const refusal = (detail: string) => ({
  errors: [
    { code: 'ValidationException', status: '422', detail, meta: { source_field: 'public_key', rule: '' } },
  ],
});

describe('GET /api/client/account/ssh-keys', () => {
  it("lists only the signed-in user's keys, as ssh_key items", async () => {
    const { browser } = await signedIn();
    const other = await signedIn();
    const mine = pemKey();
    const created = await browser.post('/api/client/account/ssh-keys', { name: 'Laptop', public_key: mine });
    expect(created.statusCode).toBe(200);
    await other.browser.post('/api/client/account/ssh-keys', { name: 'Other', public_key: pemKey('rsa') });

    const list = await browser.get('/api/client/account/ssh-keys');
    expect(list.statusCode).toBe(200);
    const fingerprint = (parseSshPublicKey(mine) as SshPublicKey).fingerprint;
    expect(list.json()).toEqual({
      object: 'list',
      data: [
        {
          object: 'ssh_key',
          attributes: {
            name: 'Laptop',
            fingerprint,
            public_key: mine.trim(),
            created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$/),
          },
        },
      ],
    });
    expect(fingerprint).toMatch(/^[A-Za-z0-9+/]{43}$/);
  });
});

describe('POST /api/client/account/ssh-keys', () => {
  it('stores a valid key and answers it with the submitted PEM, byte for byte', async () => {
    const { user, browser } = await signedIn();
    // phpseclib's layout (CRLF, nothing after the END line), what Pterodactyl's own test submits.
    const key = pemKey().trim().replace(/\n/g, '\r\n');
    const response = await browser.post('/api/client/account/ssh-keys', { name: 'Name', public_key: key });
    expect(response.statusCode).toBe(200);
    expect(response.json().object).toBe('ssh_key');
    expect(response.json().attributes.public_key).toBe(key);
    const rows = await keysOf(user.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]?.public_key).toBe(key);
    // Another layout is kept as given too (trimmed, as Laravel trims every input).
    const lf = pemKey('rsa');
    const second = await browser.post('/api/client/account/ssh-keys', { name: 'LF', public_key: lf });
    expect(second.json().attributes.public_key).toBe(lf.trim());
  });

  it('takes an OpenSSH line and stores it as PEM with the fingerprint ssh-keygen shows', async () => {
    const { browser } = await signedIn();
    const pair = sshKeyPair('ed25519', { comment: 'me@laptop' });
    const response = await browser.post('/api/client/account/ssh-keys', {
      name: 'From authorized_keys',
      public_key: `${pair.public}\n`,
    });
    expect(response.statusCode).toBe(200);
    const parsed = parseSshPublicKey(pair.public) as SshPublicKey;
    expect(response.json().attributes).toMatchObject({
      fingerprint: parsed.fingerprint,
      public_key: parsed.pem,
    });
    // Laid out as Pterodactyl stores a key given in another form (phpseclib's PKCS8 text).
    expect(parsed.pem).toMatch(
      /^-----BEGIN PUBLIC KEY-----\r\n(?:[A-Za-z0-9+/=]{1,64}\r\n)+-----END PUBLIC KEY-----$/,
    );
  });

  it('rejects DSA keys', async () => {
    const { user, browser } = await signedIn();
    const dsa = generateKeyPairSync('dsa', { modulusLength: 2048, divisorLength: 256 })
      .publicKey.export({ type: 'spki', format: 'pem' })
      .toString();
    const response = await browser.post('/api/client/account/ssh-keys', { name: 'Name', public_key: dsa });
    expect(response.statusCode).toBe(422);
    expect(response.json()).toEqual(refusal(sshKeyMessages.dsa));
    expect(await keysOf(user.id)).toHaveLength(0);
  });

  it('rejects RSA keys under 2048 bits', async () => {
    const { user, browser } = await signedIn();
    const response = await browser.post('/api/client/account/ssh-keys', {
      name: 'Name',
      public_key: pemKey('rsa', 1024),
    });
    expect(response.statusCode).toBe(422);
    expect(response.json().errors[0].detail).toBe('RSA keys must be at least 2048 bytes in length.');
    expect(await keysOf(user.id)).toHaveLength(0);
  });

  it('rejects garbage and private keys', async () => {
    const { user, browser } = await signedIn();
    const privateKeys = [
      generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      sshKeyPair().private,
    ];
    for (const publicKey of ['invalid', ...privateKeys]) {
      const response = await browser.post('/api/client/account/ssh-keys', {
        name: 'Name',
        public_key: publicKey,
      });
      expect(response.statusCode).toBe(422);
      expect(response.json()).toEqual(refusal('The public key provided is not valid.'));
    }
    expect(await keysOf(user.id)).toHaveLength(0);
  });

  it('rejects a key already on the account, whatever form it is pasted in', async () => {
    const { user, browser } = await signedIn();
    const pair = ed25519KeyPair();
    expect(
      (await browser.post('/api/client/account/ssh-keys', { name: 'A', public_key: pair.public })).statusCode,
    ).toBe(200);
    const asPem = (parseSshPublicKey(pair.public) as SshPublicKey).pem;
    for (const again of [pair.public, asPem]) {
      const response = await browser.post('/api/client/account/ssh-keys', { name: 'B', public_key: again });
      expect(response.statusCode).toBe(422);
      expect(response.json()).toEqual(refusal('The public key provided already exists on your account.'));
    }
    expect(await keysOf(user.id)).toHaveLength(1);
    // Another account may hold the same key.
    const other = await signedIn();
    expect(
      (await other.browser.post('/api/client/account/ssh-keys', { name: 'A', public_key: pair.public }))
        .statusCode,
    ).toBe(200);
  });

  it('requires name and public_key', async () => {
    const { browser } = await signedIn();
    const response = await browser.post('/api/client/account/ssh-keys', {});
    expect(response.statusCode).toBe(422);
    expect(response.json().errors.map((e: { meta: unknown }) => e.meta)).toEqual([
      { source_field: 'name', rule: 'required' },
      { source_field: 'public_key', rule: 'required' },
    ]);
  });
});

describe('POST /api/client/account/ssh-keys/remove', () => {
  it('requires a fingerprint, soft-deletes only own keys, and answers 204 whatever it found', async () => {
    const { user, browser } = await signedIn();
    const other = await signedIn();
    const key = pemKey();
    const otherKey = pemKey();
    await browser.post('/api/client/account/ssh-keys', { name: 'Mine', public_key: key });
    await other.browser.post('/api/client/account/ssh-keys', { name: 'Theirs', public_key: otherKey });
    const fingerprint = (parseSshPublicKey(key) as SshPublicKey).fingerprint;
    const otherFingerprint = (parseSshPublicKey(otherKey) as SshPublicKey).fingerprint;
    const endpoint = '/api/client/account/ssh-keys/remove';

    const missing = await browser.post(endpoint, {});
    expect(missing.statusCode).toBe(422);
    expect(missing.json().errors[0].meta).toEqual({ source_field: 'fingerprint', rule: 'required' });

    expect((await browser.post(endpoint, { fingerprint })).statusCode).toBe(204);
    const [removed] = await keysOf(user.id);
    expect(removed?.deleted_at).not.toBeNull();
    expect((await browser.get('/api/client/account/ssh-keys')).json().data).toEqual([]);

    expect((await browser.post(endpoint, { fingerprint })).statusCode).toBe(204);
    expect((await browser.post(endpoint, { fingerprint: otherFingerprint })).statusCode).toBe(204);
    const [theirs] = await keysOf(other.user.id);
    expect(theirs?.deleted_at).toBeNull();
    // A removed key may be added again.
    expect(
      (await browser.post('/api/client/account/ssh-keys', { name: 'Back', public_key: key })).statusCode,
    ).toBe(200);
  });
});

describe('activity', () => {
  it('logs adding a key and removing one that was there on the account, with its fingerprint', async () => {
    const { browser } = await signedIn();
    const added = await browser.post('/api/client/account/ssh-keys', {
      name: 'Laptop',
      public_key: pemKey(),
    });
    const { fingerprint } = added.json().attributes;
    await browser.post('/api/client/account/ssh-keys/remove', { fingerprint });
    // Nothing was there any more: nothing more is logged.
    await browser.post('/api/client/account/ssh-keys/remove', { fingerprint });
    const log = (await browser.get('/api/client/account/activity')).json();
    const entries = log.data.map(
      (item: { attributes: { event: string; properties: object } }) => item.attributes,
    );
    expect(entries.filter((entry: { event: string }) => entry.event.startsWith('user:ssh-key'))).toEqual([
      expect.objectContaining({ event: 'user:ssh-key.delete', properties: { fingerprint } }),
      expect.objectContaining({ event: 'user:ssh-key.create', properties: { fingerprint } }),
    ]);
  });
});

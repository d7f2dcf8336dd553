import { sha256 } from '@aerie/panel/crypto/tokens';
import { TestBrowser } from '@aerie/panel/test/browser';
import { buildTestApp, type TestApp } from '@aerie/panel/test/build-test-app';
import { createTestUser } from '@aerie/panel/test/factories';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APPLICATION_KEY } from './api-key';
import { insertKey } from './api-keys.repository';

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

const storedKey = (identifier: string) =>
  t.db.selectFrom('api_keys').selectAll().where('identifier', '=', identifier).executeTakeFirst();

const entry = (source_field: string, rule: string, detail: string) => ({
  code: 'ValidationException',
  status: '422',
  detail,
  meta: { source_field, rule },
});

describe('POST /api/client/account/api-keys', () => {
  it.each([
    ['no IPs', []],
    ['IPv4 addresses', ['192.168.1.1', '10.0.0.2']],
    ['IPv6 addresses', ['::1', '2001:db8::1234']],
    ['CIDR ranges', ['192.168.10.10/28', '2001:db8::/32', '::ffff:7f00:1']],
  ])('creates a key with %s and returns its secret once, storing only a hash', async (_name, ips) => {
    const { user, browser } = await signedIn();
    const response = await browser.post('/api/client/account/api-keys', {
      description: 'My deploy script',
      allowed_ips: ips,
    });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(Object.keys(body)).toEqual(['object', 'attributes', 'meta']);
    expect(body.object).toBe('api_key');
    expect(body.attributes).toEqual({
      identifier: expect.stringMatching(/^ptlc_[A-Za-z0-9]{11}$/),
      description: 'My deploy script',
      allowed_ips: ips,
      last_used_at: null,
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$/),
    });
    const secret = body.meta.secret_token as string;
    expect(secret).toMatch(/^[A-Za-z0-9]{32}$/);
    const row = await storedKey(body.attributes.identifier);
    expect(row?.user_id).toBe(user.id);
    expect(row?.token).toBe(sha256(secret));
    expect(JSON.stringify(row)).not.toContain(secret);
    // The list never shows the secret again.
    const list = await browser.get('/api/client/account/api-keys');
    expect(list.body).not.toContain(secret);
  });

  it('treats a missing or null allowed_ips as no restriction', async () => {
    const { browser } = await signedIn();
    for (const body of [{ description: 'no list' }, { description: 'null list', allowed_ips: null }]) {
      const response = await browser.post('/api/client/account/api-keys', body);
      expect(response.statusCode).toBe(200);
      expect(response.json().attributes.allowed_ips).toEqual([]);
    }
  });

  it('requires a description of at most 500 characters', async () => {
    const { browser } = await signedIn();
    const empty = await browser.post('/api/client/account/api-keys', { description: '', allowed_ips: [] });
    expect(empty.statusCode).toBe(422);
    expect(empty.json()).toEqual({
      errors: [entry('description', 'required', 'The description field is required.')],
    });
    const long = await browser.post('/api/client/account/api-keys', { description: 'x'.repeat(501) });
    expect(long.json()).toEqual({
      errors: [entry('description', 'max', 'The description may not be greater than 500 characters.')],
    });
    expect(
      (await browser.post('/api/client/account/api-keys', { description: 'x'.repeat(500) })).statusCode,
    ).toBe(200);
  });

  it('requires a description of at least 4 characters, as the form does (spaces around it do not count)', async () => {
    const { browser } = await signedIn();
    for (const description of ['abc', '  ab  ']) {
      const short = await browser.post('/api/client/account/api-keys', { description, allowed_ips: [] });
      expect(short.statusCode).toBe(422);
      expect(short.json()).toEqual({
        errors: [entry('description', 'min', 'The description must be at least 4 characters.')],
      });
    }
    expect((await browser.get('/api/client/account/api-keys')).json().data).toEqual([]);
    const four = await browser.post('/api/client/account/api-keys', {
      description: ' abcd ',
      allowed_ips: [],
    });
    expect(four.statusCode).toBe(200);
    expect(four.json().attributes.description).toBe('abcd');
  });

  it('refuses more than 50 IPs', async () => {
    const { browser } = await signedIn();
    const ips = Array.from({ length: 51 }, (_, i) => `10.0.0.${i + 1}`);
    const response = await browser.post('/api/client/account/api-keys', {
      description: 'many',
      allowed_ips: ips,
    });
    expect(response.statusCode).toBe(422);
    expect(response.json()).toEqual({
      errors: [entry('allowed_ips', 'max', 'The allowed ips may not have more than 50 items.')],
    });
    const fifty = await browser.post('/api/client/account/api-keys', {
      description: 'fifty',
      allowed_ips: ips.slice(0, 50),
    });
    expect(fifty.statusCode).toBe(200);
  });

  it('reports each entry that is not an IP address or CIDR range, after the rules', async () => {
    const { browser } = await signedIn();
    const response = await browser.post('/api/client/account/api-keys', {
      description: '',
      allowed_ips: ['127.0.0.1', 'not an ip', '10.0.0.0/8', '300.1.1.1', '::1/129', '127.1', '1.2.3.4/33'],
    });
    expect(response.statusCode).toBe(422);
    expect(response.json().errors).toEqual([
      entry('description', 'required', 'The description field is required.'),
      entry('allowed_ips.1', '', '"not an ip" is not a valid IP address or CIDR range.'),
      entry('allowed_ips.3', '', '"300.1.1.1" is not a valid IP address or CIDR range.'),
      entry('allowed_ips.4', '', '"::1/129" is not a valid IP address or CIDR range.'),
      entry('allowed_ips.5', '', '"127.1" is not a valid IP address or CIDR range.'),
      entry('allowed_ips.6', '', '"1.2.3.4/33" is not a valid IP address or CIDR range.'),
    ]);
    const notArray = await browser.post('/api/client/account/api-keys', {
      description: 'a key',
      allowed_ips: '1.1.1.1',
    });
    expect(notArray.json().errors).toEqual([
      entry('allowed_ips', 'array', 'The allowed ips must be an array.'),
    ]);
  });

  it('stops at 25 keys: the 26th is a 400 DisplayException', async () => {
    const { user, browser } = await signedIn();
    for (let i = 0; i < 24; i++)
      await t.ctx.apiKeys.create(user, { description: `key ${i}`, allowedIps: [] });
    const twentyFifth = await browser.post('/api/client/account/api-keys', { description: 'key 25' });
    expect(twentyFifth.statusCode).toBe(200);
    const twentySixth = await browser.post('/api/client/account/api-keys', { description: 'key 26' });
    expect(twentySixth.statusCode).toBe(400);
    expect(twentySixth.json()).toEqual({
      errors: [
        {
          code: 'DisplayException',
          status: '400',
          detail: 'You have reached the account limit for number of API keys.',
        },
      ],
    });
    expect((await browser.get('/api/client/account/api-keys')).json().data).toHaveLength(25);
  });

  it('keeps the limit when requests race', async () => {
    const { user, browser } = await signedIn();
    for (let i = 0; i < 23; i++)
      await t.ctx.apiKeys.create(user, { description: `key ${i}`, allowedIps: [] });
    const answers = await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        browser.post('/api/client/account/api-keys', { description: `race ${i}` }),
      ),
    );
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 200, 400, 400, 400]);
    expect((await browser.get('/api/client/account/api-keys')).json().data).toHaveLength(25);
  });
});

describe('GET /api/client/account/api-keys', () => {
  it('lists only the caller’s own account keys, oldest first', async () => {
    const { user, browser } = await signedIn();
    const other = await createTestUser(t.ctx);
    expect((await browser.get('/api/client/account/api-keys')).json()).toEqual({ object: 'list', data: [] });
    const first = await t.ctx.apiKeys.create(user, { description: 'first', allowedIps: ['10.0.0.1'] });
    const second = await t.ctx.apiKeys.create(user, { description: 'second', allowedIps: [] });
    await t.ctx.apiKeys.create(other.user, { description: 'not mine', allowedIps: [] });
    await insertKey(
      t.db,
      {
        userId: user.id,
        keyType: APPLICATION_KEY,
        identifier: 'ptla_Applicatio1',
        tokenHash: sha256('x'),
        description: 'application key',
        allowedIps: [],
      },
      new Date(),
    );
    const response = await browser.get('/api/client/account/api-keys');
    expect(response.statusCode).toBe(200);
    const { object, data } = response.json();
    expect(object).toBe('list');
    expect(data).toEqual([
      {
        object: 'api_key',
        attributes: expect.objectContaining({
          identifier: first.key.identifier,
          description: 'first',
          allowed_ips: ['10.0.0.1'],
        }),
      },
      {
        object: 'api_key',
        attributes: expect.objectContaining({ identifier: second.key.identifier, description: 'second' }),
      },
    ]);
  });
});

describe('DELETE /api/client/account/api-keys/{identifier}', () => {
  const notFound = {
    errors: [
      {
        code: 'NotFoundHttpException',
        status: '404',
        detail: 'The requested resource could not be found on the server.',
      },
    ],
  };

  it('deletes the caller’s key (204)', async () => {
    const { user, browser } = await signedIn();
    const { key } = await t.ctx.apiKeys.create(user, { description: 'to delete', allowedIps: [] });
    const response = await browser.send('DELETE', `/api/client/account/api-keys/${key.identifier}`);
    expect(response.statusCode).toBe(204);
    expect(await storedKey(key.identifier)).toBeUndefined();
    const again = await browser.send('DELETE', `/api/client/account/api-keys/${key.identifier}`);
    expect(again.statusCode).toBe(404);
  });

  it('answers 404 for an unknown key, another user’s key and an application key, and deletes nothing', async () => {
    const { user, browser } = await signedIn();
    const other = await createTestUser(t.ctx);
    const { key: theirs } = await t.ctx.apiKeys.create(other.user, { description: 'theirs', allowedIps: [] });
    const application = await insertKey(
      t.db,
      {
        userId: user.id,
        keyType: APPLICATION_KEY,
        identifier: 'ptla_Applicatio2',
        tokenHash: sha256('x'),
        description: 'application key',
        allowedIps: [],
      },
      new Date(),
    );
    for (const identifier of ['ptlc_unknown1234', theirs.identifier, application.identifier]) {
      const response = await browser.send('DELETE', `/api/client/account/api-keys/${identifier}`);
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual(notFound);
    }
    expect(await storedKey(theirs.identifier)).toBeDefined();
    expect(await storedKey(application.identifier)).toBeDefined();
  });
});

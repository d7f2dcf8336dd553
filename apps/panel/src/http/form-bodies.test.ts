import { JSON_BODY_LIMIT_BYTES } from '@aerie/panel/app';
import { findUserByLogin } from '@aerie/panel/features/users/users.repository';
import { createAdminWithKey } from '@aerie/panel/test/application-api';
import { TestBrowser } from '@aerie/panel/test/browser';
import { buildTestApp, type TestApp } from '@aerie/panel/test/build-test-app';
import { closedPort } from '@aerie/panel/test/closed-port';
import { createTestUser } from '@aerie/panel/test/factories';
import { createTestNode, createTestServer, importDemoEgg } from '@aerie/panel/test/server-factories';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FORM_LIMITS } from './form-body-parser';

let t: TestApp;
let adminBearer: string;
beforeAll(async () => {
  t = await buildTestApp();
  ({ bearer: adminBearer } = await createAdminWithKey(t.ctx));
});
afterAll(() => t.close());

type Method = 'POST' | 'PATCH' | 'PUT';

/** A call with a bearer key, JSON accepted, and a body of the given type (no cookie, no CSRF token). */
function bodyRequest(bearer: string, method: Method, url: string, contentType: string, payload: string) {
  return t.app.inject({
    method,
    url,
    headers: { authorization: `Bearer ${bearer}`, accept: 'application/json', 'content-type': contentType },
    payload,
  });
}

/** A call as a PHP script makes it with curl: the body form-encoded. */
const formRequest = (bearer: string, method: Method, url: string, body: string) =>
  bodyRequest(bearer, method, url, 'application/x-www-form-urlencoded', body);

/** The same fields as `multipart/form-data` (PHP's CURLOPT_POSTFIELDS with an array), a file part among them. */
function multipartRequest(bearer: string, method: Method, url: string, fields: [string, string][]) {
  const boundary = '----aerie-form-test';
  const parts = fields.map(
    ([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
  );
  const file = `--${boundary}\r\nContent-Disposition: form-data; name="avatar"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n\x89PNG\r\n`;
  const body = `${parts.join('')}${file}--${boundary}--\r\n`;
  return bodyRequest(bearer, method, url, `multipart/form-data; boundary=${boundary}`, body);
}

const jsonRequest = (bearer: string, method: Method, url: string, body: unknown) =>
  bodyRequest(bearer, method, url, 'application/json', JSON.stringify(body));

describe('form bodies on the API routes', () => {
  it('creates a user from a form-encoded body, as from JSON', async () => {
    const response = await formRequest(
      adminBearer,
      'POST',
      '/api/application/users',
      'email=form%40example.com&username=formuser&first_name=Form&last_name=User+Name',
    );
    expect(response.statusCode).toBe(201);
    expect(response.json().attributes).toMatchObject({
      email: 'form@example.com',
      username: 'formuser',
      last_name: 'User Name',
    });
    expect((await findUserByLogin(t.db, 'formuser'))?.email).toBe('form@example.com');
  });

  it('creates a user from a multipart body, skipping a file part', async () => {
    const response = await multipartRequest(adminBearer, 'POST', '/api/application/users', [
      ['email', 'multi@example.com'],
      ['username', 'multiuser'],
      ['first_name', 'Multi'],
      ['last_name', 'Part'],
    ]);
    expect(response.statusCode).toBe(201);
    expect(response.json().attributes.username).toBe('multiuser');
  });

  it('refuses a form with the same 422 as the same JSON, and stores nothing', async () => {
    const fromForm = await formRequest(
      adminBearer,
      'POST',
      '/api/application/users',
      'email=not-an-email&username=&first_name=A&last_name=B',
    );
    const fromJson = await jsonRequest(adminBearer, 'POST', '/api/application/users', {
      email: 'not-an-email',
      username: '',
      first_name: 'A',
      last_name: 'B',
    });
    expect(fromForm.statusCode).toBe(422);
    expect(fromForm.json()).toEqual(fromJson.json());
  });

  it("reads PHP's brackets: nested build limits and numbers as strings", async () => {
    const { user } = await createTestUser(t.ctx);
    const node = await createTestNode(t.ctx, { fqdn: '127.0.0.1', daemonListen: await closedPort() });
    const egg = await importDemoEgg(t.ctx);
    const server = await createTestServer(t.ctx, { owner: user, node, eggId: egg.id, memory: 256 });
    const response = await formRequest(
      adminBearer,
      'PATCH',
      `/api/application/servers/${server.id}/build`,
      [
        `allocation=${server.allocation_id}`,
        'limits[memory]=1024',
        'limits[swap]=0',
        'limits[disk]=2048',
        'limits[io]=500',
        'limits[cpu]=150',
        'feature_limits[databases]=2',
        'feature_limits[allocations]=3',
        'feature_limits[backups]=4',
      ].join('&'),
    );
    expect(response.statusCode).toBe(200);
    expect(response.json().attributes).toMatchObject({
      limits: { memory: 1024, disk: 2048, cpu: 150 },
      feature_limits: { databases: 2, allocations: 3, backups: 4 },
    });
  });

  it('reads a list from `name[]` fields on the client API (an account key with allowed IPs)', async () => {
    const { user } = await createTestUser(t.ctx);
    const key = await t.ctx.apiKeys.create(user, { description: 'form client', allowedIps: [] });
    const response = await formRequest(
      key.key.identifier + key.secret,
      'POST',
      '/api/client/account/api-keys',
      'description=Billing+script&allowed_ips[]=10.1.0.1&allowed_ips[]=10.1.0.0%2F24',
    );
    expect(response.statusCode).toBe(200);
    expect(response.json().attributes).toMatchObject({
      description: 'Billing script',
      allowed_ips: ['10.1.0.1', '10.1.0.0/24'],
    });
  });

  it(`refuses more than ${FORM_LIMITS.fields} fields or deep brackets with a 400, creating nothing`, async () => {
    const fields = Array.from({ length: FORM_LIMITS.fields + 1 }, (_, i) => `f${i}=x`);
    const many = await formRequest(
      adminBearer,
      'POST',
      '/api/application/users',
      `email=many%40example.com&username=many&first_name=A&last_name=B&${fields.join('&')}`,
    );
    const deep = await formRequest(
      adminBearer,
      'POST',
      '/api/application/users',
      'email=deep%40example.com&username=deep&first_name=A&last_name=B&a[b][c][d][e][f][g]=1',
    );
    const partFields: [string, string][] = Array.from({ length: FORM_LIMITS.fields + 1 }, (_, i) => [
      `f${i}`,
      'x',
    ]);
    const manyParts = await multipartRequest(adminBearer, 'POST', '/api/application/users', [
      ['email', 'parts@example.com'],
      ['username', 'parts'],
      ['first_name', 'A'],
      ['last_name', 'B'],
      ...partFields,
    ]);
    for (const response of [many, deep, manyParts]) {
      expect(response.statusCode).toBe(400);
      expect(response.json().errors[0]).toMatchObject({ code: 'BadRequestHttpException', status: '400' });
    }
    for (const username of ['many', 'deep', 'parts'])
      expect(await findUserByLogin(t.db, username)).toBeNull();
  });

  it('refuses a form body over the JSON limit with 413, and a multipart body with no boundary with 400', async () => {
    const huge = await formRequest(
      adminBearer,
      'POST',
      '/api/application/users',
      `email=big%40example.com&username=big&first_name=${'a'.repeat(JSON_BODY_LIMIT_BYTES)}`,
    );
    expect(huge.statusCode).toBe(413);
    const noBoundary = await bodyRequest(
      adminBearer,
      'POST',
      '/api/application/users',
      'multipart/form-data',
      'email=x',
    );
    expect(noBoundary.statusCode).toBe(400);
    expect(noBoundary.json().errors[0].code).toBe('BadRequestHttpException');
  });

  it('gives a cross-site form no way in: a signed-in browser posting a form without the CSRF header gets 419', async () => {
    const { user, password } = await createTestUser(t.ctx);
    const browser = new TestBrowser(t.app);
    expect((await browser.signIn(user.username, password)).statusCode).toBeLessThan(400);
    const response = await browser.request({
      method: 'POST',
      url: '/api/client/account/api-keys',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      payload: 'description=Forged+key',
    });
    expect(response.statusCode).toBe(419);
    const keys = await browser.get('/api/client/account/api-keys');
    expect(keys.json().data).toEqual([]);
  });
});

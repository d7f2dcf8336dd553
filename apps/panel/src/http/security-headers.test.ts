import { TestBrowser } from '@aerie/panel/test/browser';
import { buildTestApp, type TestApp } from '@aerie/panel/test/build-test-app';
import { createTestNode } from '@aerie/panel/test/server-factories';
import { type Scenario, serverScenario } from '@aerie/panel/test/server-scenario';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let t: TestApp;
let s: Scenario;
beforeAll(async () => {
  t = await buildTestApp();
  // Nodes first: the page's policy names them (read when the first page is rendered).
  await createTestNode(t.ctx, {
    name: 'Secure',
    scheme: 'https',
    fqdn: 'game-1.example.com',
    daemonListen: 8443,
  });
  await createTestNode(t.ctx, { name: 'Broken', fqdn: "evil.test; script-src 'unsafe-inline'" });
  s = await serverScenario(t, []);
});
afterAll(() => t.close());

/** The directives of a Content-Security-Policy header, by name. */
function directives(response: LightMyRequestResponse): Map<string, string[]> {
  const header = String(response.headers['content-security-policy'] ?? '');
  return new Map(
    header
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .filter((words) => words[0])
      .map(([name = '', ...values]) => [name, values]),
  );
}

function expectEveryResponseHeaders(response: LightMyRequestResponse) {
  expect(response.headers['x-frame-options']).toBe('DENY');
  expect(response.headers['x-content-type-options']).toBe('nosniff');
  expect(response.headers['referrer-policy']).toBe('same-origin');
  expect(directives(response).get('frame-ancestors')).toEqual(["'none'"]);
}

describe('security headers on every panel answer', () => {
  it.each([
    ['the HTML shell', 'GET', '/auth/login', 200],
    ['a page while signed out (redirect)', 'GET', '/server/abc', 302],
    ['an API answer', 'GET', '/api/client/account', 401],
    ['an unknown API route', 'GET', '/api/client/nowhere', 404],
    ['a refused POST (CSRF)', 'POST', '/auth/login', 419],
    ['a static asset', 'GET', '/assets/index-Abc123.js', 200],
    ['a top-level file', 'GET', '/favicon.ico', 200],
    ['a translation', 'GET', '/locales/en/auth.json', 200],
    ['a missing translation', 'GET', '/locales/en/nope.json', 404],
  ] as const)('%s', async (_name, method, url, status) => {
    const response = await t.app.inject({ method, url });
    expect(response.statusCode).toBe(status);
    expectEveryResponseHeaders(response);
  });

  it('gives anything but the shell a policy under which nothing runs or loads', async () => {
    for (const url of ['/api/client/account', '/assets/index-Abc123.js', '/locales/en/auth.json']) {
      const policy = directives(await t.app.inject({ method: 'GET', url }));
      expect(policy.get('default-src')).toEqual(["'none'"]);
      expect(policy.has('script-src')).toBe(false);
    }
  });

  it('signed in, API answers carry them too', async () => {
    const response = await s.owner.get('/api/client/account');
    expect(response.statusCode).toBe(200);
    expectEveryResponseHeaders(response);
  });
});

describe("the HTML shell's Content-Security-Policy", () => {
  it('allows its inline script by a nonce that changes with every page, and no other inline script', async () => {
    const first = await new TestBrowser(t.app).open('/auth/login');
    const second = await new TestBrowser(t.app).open('/auth/login');
    const nonces = [first, second].map((page) => {
      const scriptSrc = directives(page).get('script-src') ?? [];
      expect(scriptSrc).not.toContain("'unsafe-inline'");
      expect(scriptSrc).not.toContain("'unsafe-eval'");
      const nonce = scriptSrc.find((value) => value.startsWith("'nonce-"))?.slice(7, -1);
      expect(nonce).toMatch(/^[A-Za-z0-9_-]{24}$/);
      // Every inline script of the page carries it; the build's script is a file from the panel itself.
      const inline = [...page.body.matchAll(/<script(?![^>]*\bsrc=)([^>]*)>/g)].map((m) => m[1]);
      expect(inline).toEqual([` nonce="${nonce}"`]);
      expect(scriptSrc).toContain("'self'");
      return nonce;
    });
    expect(nonces[0]).not.toBe(nonces[1]);
  });

  it("names each node's daemon, HTTP and websocket, in connect-src and nothing else outside", async () => {
    const page = await s.owner.browser.open('/');
    const connect = directives(page).get('connect-src') ?? [];
    expect(connect).toEqual(
      expect.arrayContaining([
        "'self'",
        'https://game-1.example.com:8443',
        'wss://game-1.example.com:8443',
        `http://${s.node.fqdn}:${s.node.daemon_listen}`,
        `ws://${s.node.fqdn}:${s.node.daemon_listen}`,
      ]),
    );
    // A node whose address could break the policy is left out, not pasted in.
    expect(connect.join(' ')).not.toContain('evil.test');
    expect(directives(page).get('script-src')).not.toContain("'unsafe-inline'");
    for (const value of connect) expect(['ws:', 'wss:', 'http:', 'https:', '*']).not.toContain(value);
  });

  it('allows the console websocket and the signed URLs the panel hands out for a server', async () => {
    const page = await s.owner.browser.open(`/server/${s.server.uuid_short}`);
    const connect = directives(page).get('connect-src') ?? [];
    const credentials = await s.owner.get(`/api/client/servers/${s.server.uuid_short}/websocket`);
    expect(credentials.statusCode).toBe(200);
    const socket = new URL(credentials.json().data.socket);
    expect(connect).toContain(`${socket.protocol}//${socket.host}`);
  });

  it('keeps the rest of the page strict', async () => {
    const policy = directives(await new TestBrowser(t.app).open('/auth/login'));
    expect(policy.get('default-src')).toEqual(["'self'"]);
    expect(policy.get('object-src')).toEqual(["'none'"]);
    expect(policy.get('base-uri')).toEqual(["'none'"]);
    expect(policy.get('form-action')).toEqual(["'self'"]);
    expect(policy.get('frame-src')).toEqual(["'none'"]);
    expect(policy.get('img-src')).toEqual(["'self'", 'data:']);
  });
});

describe('with an avatar service', () => {
  it('lets the page load the users’ pictures from that origin, and from no other', async () => {
    const withAvatars = await buildTestApp({
      env: { AVATAR_URL_TEMPLATE: 'https://avatars.example.com/avatar/{md5}?s=400' },
    });
    try {
      const policy = directives(await new TestBrowser(withAvatars.app).open('/auth/login'));
      expect(policy.get('img-src')).toEqual(["'self'", 'data:', 'https://avatars.example.com']);
    } finally {
      await withAvatars.close();
    }
  });
});

describe('with reCAPTCHA on', () => {
  let withCaptcha: TestApp;
  beforeAll(async () => {
    withCaptcha = await buildTestApp({
      env: { RECAPTCHA_ENABLED: 'true', RECAPTCHA_SITE_KEY: 'site', RECAPTCHA_SECRET_KEY: 'secret' },
    });
  });
  afterAll(() => withCaptcha.close());

  it("allows Google's script and challenge frame, and only then", async () => {
    const policy = directives(await new TestBrowser(withCaptcha.app).open('/auth/login'));
    expect(policy.get('script-src')).toEqual(
      expect.arrayContaining(['https://www.google.com/recaptcha/', 'https://www.gstatic.com/recaptcha/']),
    );
    expect(policy.get('frame-src')).toEqual([
      'https://www.google.com/recaptcha/',
      'https://recaptcha.google.com/recaptcha/',
    ]);
    const without = directives(await new TestBrowser(t.app).open('/auth/login'));
    expect((without.get('script-src') ?? []).join(' ')).not.toContain('google');
  });
});

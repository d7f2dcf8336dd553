import { mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { TestBrowser } from '@aerie/panel/test/browser';
import { buildTestApp, type TestApp } from '@aerie/panel/test/build-test-app';
import { createTestUser } from '@aerie/panel/test/factories';
import { FIXTURE_ASSET } from '@aerie/panel/test/web-dist-fixture';
import { adminPermissions } from '@aerie/shared/admin-roles/admin-permissions';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { HtmlShell, WebBuildMissingError } from './html-shell';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ env: { APP_NAME: 'Acme </script><b>Panel' } });
});
afterAll(() => t.close());

/** The globals the shell's inline script sets, evaluated the way a browser would. */
function pageGlobals(html: string) {
  const script = /<script nonce="[^"]+">(window\.PterodactylUser = [\s\S]*?)<\/script>/.exec(html)?.[1];
  if (!script) throw new Error('no page globals in the shell');
  const window: Record<string, unknown> = {};
  new Function('window', script)(window);
  return window as { PterodactylUser: unknown; SiteConfiguration: Record<string, unknown> };
}

describe('the HTML shell', () => {
  it('injects the CSRF meta tag, a null user and the site configuration for a guest', async () => {
    const browser = new TestBrowser(t.app);
    const response = await browser.open('/auth/login');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.body).toMatch(
      /<meta name="csrf-token" content="[^"]{20,}"><script nonce="[^"]+">window\.PterodactylUser = null;/,
    );
    // Injected right before </head>, the rest of the page untouched.
    expect(response.body).toMatch(/<\/script><\/head>\n<body><div id="app"><\/div><\/body>/);
    expect(response.body).toContain(
      '<script type="module" crossorigin src="/assets/index-Abc123.js"></script>',
    );
    expect(pageGlobals(response.body)).toEqual({
      PterodactylUser: null,
      SiteConfiguration: {
        name: 'Acme </script><b>Panel',
        locale: 'en',
        recaptcha: { enabled: false, siteKey: '' },
        analytics: null,
      },
    });
    expect(browser.cookies.has('aerie_csrf')).toBe(true);
  });

  it('escapes the product name in the title and in the script', async () => {
    const { body } = await new TestBrowser(t.app).open('/auth/login');
    expect(body).toContain('<title>Acme &lt;/script&gt;&lt;b&gt;Panel</title>');
    expect(body).not.toContain('Vite App');
    expect(body).toContain('"name":"Acme \\u003c/script\\u003e\\u003cb\\u003ePanel"');
    expect(body.match(/<\/script>/g)).toHaveLength(2);
  });

  it('injects the signed-in user', async () => {
    const { user, password } = await createTestUser(t.ctx, { username: 'Jane', rootAdmin: true });
    const browser = new TestBrowser(t.app);
    await browser.signIn('jane', password);
    const response = await browser.open('/account');
    expect(response.statusCode).toBe(200);
    expect(pageGlobals(response.body).PterodactylUser).toEqual({
      uuid: user.uuid,
      username: 'jane',
      email: user.email,
      language: 'en',
      root_admin: true,
      admin_permissions: [...adminPermissions],
      use_totp: false,
      created_at: expect.stringMatching(/\+00:00$/),
      updated_at: expect.stringMatching(/\+00:00$/),
    });
  });
});

describe('page routes', () => {
  it.each([
    ['/', '/auth/login'],
    ['/account', '/auth/login?redirect=%2Faccount'],
    ['/account/api', '/auth/login?redirect=%2Faccount%2Fapi'],
    ['/server/abc12345/files', '/auth/login?redirect=%2Fserver%2Fabc12345%2Ffiles'],
    ['/?page=2', '/auth/login?redirect=%2F%3Fpage%3D2'],
    ['/anything/else?a=1&b=2', '/auth/login?redirect=%2Fanything%2Felse%3Fa%3D1%26b%3D2'],
  ])('sends a guest from %s to the login page, remembering the address: %s', async (path, location) => {
    const response = await new TestBrowser(t.app).request({ method: 'GET', url: path });
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toBe(location);
  });

  it('never puts another host in the remembered address', async () => {
    const { loginFor } = await import('./page-routes');
    expect(loginFor('//evil.example/x')).toBe('/auth/login');
    expect(loginFor('/\\evil.example')).toBe('/auth/login');
    expect(loginFor('http://evil.example/')).toBe('/auth/login');
  });

  it.each([
    '/auth/login',
    '/auth/login/checkpoint',
    '/auth/password',
    '/auth/password/reset/abc123',
    '/auth/nothing-here',
  ])('serves the shell to a guest at %s', async (path) => {
    const response = await new TestBrowser(t.app).open(path);
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('window.PterodactylUser = null');
  });

  it('sends a signed-in user away from the sign-in pages, but serves other pages', async () => {
    const { user, password } = await createTestUser(t.ctx);
    const browser = new TestBrowser(t.app);
    await browser.signIn(user.username, password);
    for (const path of [
      '/auth/login',
      '/auth/login/',
      '/auth/login/checkpoint',
      '/auth/password',
      '/auth/password/reset/t0ken',
    ]) {
      const response = await browser.request({ method: 'GET', url: path });
      expect(response.statusCode, path).toBe(302);
      expect(response.headers.location).toBe('/');
    }
    for (const path of ['/', '/account', '/server/abc12345', '/auth/unknown', '/no/such/page']) {
      const response = await browser.request({ method: 'GET', url: path });
      expect(response.statusCode, path).toBe(200);
      expect(response.body).toContain(`"username":"${user.username}"`);
    }
  });

  it('never answers the shell under /api, /assets or /locales', async () => {
    for (const path of ['/api', '/api/client/nothing', '/assets/missing.js', '/locales/en']) {
      const response = await new TestBrowser(t.app).request({ method: 'GET', url: path });
      expect(response.statusCode, path).toBe(404);
      expect(response.json()).toEqual({
        errors: [
          {
            code: 'NotFoundHttpException',
            status: '404',
            detail: 'The requested resource could not be found on the server.',
          },
        ],
      });
    }
  });
});

describe('static files', () => {
  it('serves hashed assets with a long cache', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/assets/index-Abc123.js' });
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe('console.log("aerie");\n');
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it.each([
    ['br', 'br', brotliDecompressSync],
    ['gzip, deflate, br, zstd', 'br', brotliDecompressSync],
    ['gzip', 'gzip', gunzipSync],
    ['br;q=0, gzip', 'gzip', gunzipSync],
  ] as const)('answers Accept-Encoding: %s with the build-time %s copy', async (accept, encoding, decode) => {
    const response = await t.app.inject({
      method: 'GET',
      url: FIXTURE_ASSET.path,
      headers: { 'accept-encoding': accept },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBe(encoding);
    expect(response.headers['content-type']).toMatch(/^text\/javascript|^application\/javascript/);
    expect(response.headers.vary).toMatch(/accept-encoding/i);
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(decode(response.rawPayload).toString()).toBe(FIXTURE_ASSET.body);
  });

  it('sends the plain file to a client that accepts no compression', async () => {
    for (const headers of [{}, { 'accept-encoding': 'identity' }]) {
      const response = await t.app.inject({ method: 'GET', url: FIXTURE_ASSET.path, headers });
      expect(response.headers['content-encoding']).toBeUndefined();
      expect(response.body).toBe(FIXTURE_ASSET.body);
    }
  });

  it('serves top-level files of the build, but never index.html directly', async () => {
    const favicon = await t.app.inject({ method: 'GET', url: '/favicon.ico' });
    expect(favicon.statusCode).toBe(200);
    expect(favicon.rawPayload).toEqual(Buffer.from([0, 0, 1, 0]));
    const index = await t.app.inject({ method: 'GET', url: '/index.html' });
    // A guest asking for it is just visiting a page.
    expect(index.statusCode).toBe(302);
  });

  it('does not let an asset path climb out of the assets folder', async () => {
    for (const url of ['/assets/../index.html', '/assets/%2e%2e/index.html', '/assets/..%2findex.html']) {
      const response = await t.app.inject({ method: 'GET', url });
      // Dot segments are resolved like a browser does (→ /index.html, a page) or refused; never a file outside.
      expect([302, 403, 404], url).toContain(response.statusCode);
      expect(response.body).not.toContain('<div id="app">');
    }
  });
});

describe('a missing web build', () => {
  it('fails at boot with a message that says to build', () => {
    const empty = mkdtempSync(join(tmpdir(), 'aerie-no-dist-'));
    try {
      expect(() => HtmlShell.load(empty)).toThrow(WebBuildMissingError);
      expect(() => HtmlShell.load(empty)).toThrow(/index\.html is missing\. Run "npm run build"/);
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });
});

describe('a rebuild of the web app under a running panel', () => {
  const site = { name: 'Aerie', locale: 'en', recaptcha: { enabled: false, siteKey: '' }, analytics: null };
  const page = (asset: string) =>
    `<!doctype html><html><head><script type="module" src="/assets/${asset}"></script></head><body></body></html>`;

  it('serves the new index.html once the file changed, and the last good one while it is missing', () => {
    vi.useFakeTimers();
    const dist = mkdtempSync(join(tmpdir(), 'aerie-rebuild-'));
    try {
      writeFileSync(join(dist, 'index.html'), page('index-old.js'));
      const shell = HtmlShell.load(dist);
      const render = () => shell.render({ csrfToken: 't', user: null, site, nonce: 'n' });
      expect(render()).toContain('index-old.js');

      rmSync(join(dist, 'index.html'));
      vi.advanceTimersByTime(1500);
      expect(render()).toContain('index-old.js');

      writeFileSync(join(dist, 'index.html'), page('index-new.js'));
      utimesSync(join(dist, 'index.html'), new Date(), new Date(Date.now() + 5000));
      vi.advanceTimersByTime(1500);
      expect(render()).toContain('index-new.js');
      expect(render()).not.toContain('index-old.js');
    } finally {
      vi.useRealTimers();
      rmSync(dist, { recursive: true, force: true });
    }
  });
});

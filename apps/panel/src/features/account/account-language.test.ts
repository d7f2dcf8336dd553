import { TestBrowser } from '@aerie/panel/test/browser';
import { buildTestApp, type TestApp } from '@aerie/panel/test/build-test-app';
import { createTestUser } from '@aerie/panel/test/factories';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

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

const invalid = (rule: string, detail: string) => ({
  errors: [{ code: 'ValidationException', status: '422', detail, meta: { source_field: 'language', rule } }],
});

describe('PUT /api/client/account/language', () => {
  it('sets the language the account and its next pages read', async () => {
    const { browser } = await signedIn();
    const response = await browser.send('PUT', '/api/client/account/language', { language: 'de' });
    expect(response.statusCode).toBe(204);
    expect((await browser.get('/api/client/account')).json().attributes.language).toBe('de');
    const page = await browser.get('/');
    expect(page.body).toContain('"language":"de"');
  });

  it('refuses a language the panel does not ship, or none, and changes nothing', async () => {
    const { browser } = await signedIn();
    for (const language of ['xx', 'DE', 'de-DE', `${'a'.repeat(100_000)}`]) {
      const response = await browser.send('PUT', '/api/client/account/language', { language });
      expect(response.statusCode).toBe(422);
      expect(response.json()).toEqual(invalid('in', 'The selected language is invalid.'));
    }
    const missing = await browser.send('PUT', '/api/client/account/language', {});
    expect(missing.json()).toEqual(invalid('required', 'The language field is required.'));
    expect((await browser.get('/api/client/account')).json().attributes.language).toBe('en');
  });

  it('refuses guests (401) and a session request without the CSRF token (419)', async () => {
    const { browser } = await signedIn();
    const noToken = await browser.send(
      'PUT',
      '/api/client/account/language',
      { language: 'fr' },
      { csrf: false },
    );
    expect(noToken.statusCode).toBe(419);
    const guest = await new TestBrowser(t.app).send('PUT', '/api/client/account/language', {
      language: 'fr',
    });
    expect(guest.statusCode).toBe(401);
    expect((await browser.get('/api/client/account')).json().attributes.language).toBe('en');
  });
});

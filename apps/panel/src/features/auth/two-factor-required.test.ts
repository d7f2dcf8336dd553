import { SETTING_2FA_REQUIRED } from '@aerie/panel/features/panel-settings/panel-settings';
import { TestBrowser } from '@aerie/panel/test/browser';
import { buildTestApp, type TestApp } from '@aerie/panel/test/build-test-app';
import { createTestUser, enableTwoFactor } from '@aerie/panel/test/factories';
import { generate } from 'otplib';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());
afterEach(() => t.ctx.settings.set(SETTING_2FA_REQUIRED, null));

const required = {
  errors: [
    {
      code: 'TwoFactorAuthRequiredException',
      status: '400',
      detail: 'Two-factor authentication is required on this account in order to access this endpoint.',
    },
  ],
};

async function signedIn(options: { rootAdmin?: boolean } = {}) {
  const { user, password } = await createTestUser(t.ctx, options);
  const browser = new TestBrowser(t.app);
  await browser.signIn(user.username, password);
  return { user, password, browser };
}

describe('the 2fa_required setting', () => {
  it('2 (everyone): a user without 2FA gets the 400 envelope, except on the account and 2FA routes', async () => {
    await t.ctx.settings.set(SETTING_2FA_REQUIRED, '2');
    const { password, browser } = await signedIn();
    for (const url of ['/api/client/permissions', '/api/client/account/api-keys']) {
      const response = await browser.get(url);
      expect(response.statusCode, url).toBe(400);
      expect(response.json()).toEqual(required);
    }
    const put = await browser.send('PUT', '/api/client/account/email', { email: 'a@example.com', password });
    expect(put.json()).toEqual(required);

    expect((await browser.get('/api/client/account')).statusCode).toBe(200);
    expect((await browser.get('/api/client/account/')).statusCode).toBe(200);
    const setup = await browser.get('/api/client/account/two-factor');
    expect(setup.statusCode).toBe(200);
    const { secret } = setup.json().data;
    expect((await browser.post('/api/client/account/two-factor/disable', { password })).statusCode).toBe(204);
    expect(
      (
        await browser.send(
          'DELETE',
          `/api/client/account/two-factor?password=${encodeURIComponent(password)}`,
        )
      ).statusCode,
    ).toBe(204);
    // Complying through the API opens the rest of it.
    const again = (await browser.get('/api/client/account/two-factor')).json().data.secret as string;
    expect(again).not.toBe(secret);
    const code = await generate({ secret: again, epoch: Math.floor(t.ctx.clock().getTime() / 1000) });
    expect((await browser.post('/api/client/account/two-factor', { code, password })).statusCode).toBe(200);
    expect((await browser.get('/api/client/permissions')).statusCode).toBe(200);
  });

  it('applies to API keys too', async () => {
    await t.ctx.settings.set(SETTING_2FA_REQUIRED, '2');
    const { user } = await createTestUser(t.ctx);
    const { key, secret } = await t.ctx.apiKeys.create(user, { description: 'k', allowedIps: [] });
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/client/permissions',
      headers: { authorization: `Bearer ${key.identifier}${secret}`, accept: 'application/json' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual(required);
  });

  it('1 (admins): only root admins without 2FA are refused', async () => {
    await t.ctx.settings.set(SETTING_2FA_REQUIRED, '1');
    const admin = await signedIn({ rootAdmin: true });
    const regular = await signedIn();
    expect((await admin.browser.get('/api/client/permissions')).json()).toEqual(required);
    expect((await regular.browser.get('/api/client/permissions')).statusCode).toBe(200);
    await enableTwoFactor(t.ctx, admin.user);
    expect((await admin.browser.get('/api/client/permissions')).statusCode).toBe(200);
  });

  it('0 or unset: nobody is refused', async () => {
    const { browser } = await signedIn({ rootAdmin: true });
    expect((await browser.get('/api/client/permissions')).statusCode).toBe(200);
    await t.ctx.settings.set(SETTING_2FA_REQUIRED, '0');
    expect((await browser.get('/api/client/permissions')).statusCode).toBe(200);
  });

  it('takes its default from APP_2FA_REQUIRED, which the stored setting overrides', async () => {
    const strict = await buildTestApp({ env: { APP_2FA_REQUIRED: '2' } });
    try {
      const { user, password } = await createTestUser(strict.ctx);
      const browser = new TestBrowser(strict.app);
      await browser.signIn(user.username, password);
      expect((await browser.get('/api/client/permissions')).json()).toEqual(required);
      expect((await browser.get('/api/client/account')).statusCode).toBe(200);
      await strict.ctx.settings.set(SETTING_2FA_REQUIRED, '0');
      expect((await browser.get('/api/client/permissions')).statusCode).toBe(200);
    } finally {
      await strict.close();
    }
  });

  it('comes after authentication: a guest still gets 401', async () => {
    await t.ctx.settings.set(SETTING_2FA_REQUIRED, '2');
    expect((await new TestBrowser(t.app).get('/api/client/permissions')).statusCode).toBe(401);
  });
});

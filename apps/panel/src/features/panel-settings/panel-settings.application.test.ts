import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { applicationRequest, createAdminWithKey } from '@aerie/panel/test/application-api';
import { auditEntriesAbout, auditEntryCount } from '@aerie/panel/test/audit-entries';
import { TestBrowser } from '@aerie/panel/test/browser';
import { buildTestApp, type TestApp } from '@aerie/panel/test/build-test-app';
import { closedPort } from '@aerie/panel/test/closed-port';
import { createTestUser } from '@aerie/panel/test/factories';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

let t: TestApp;
let admin: { browser: TestBrowser; email: string; id: number; username: string };

beforeAll(async () => {
  t = await buildTestApp({ env: { APP_NAME: 'Env Panel', MAIL_FROM: 'Env <env@example.com>' } });
  const { user, password } = await createTestUser(t.ctx, { rootAdmin: true });
  const browser = new TestBrowser(t.app);
  await browser.signIn(user.username, password);
  admin = { browser, email: user.email, id: user.id, username: user.username };
});
afterAll(() => t.close());
afterEach(async () => {
  const rows = await t.db.selectFrom('settings').select('key').execute();
  await t.ctx.settings.setMany(Object.fromEntries(rows.map((row) => [row.key, null])));
});

const patch = (body: Record<string, unknown>) =>
  admin.browser.send('PATCH', '/api/application/settings', body);

describe('/api/application/settings', () => {
  it('reads the environment defaults, then what was saved, never the reCAPTCHA secret', async () => {
    const initial = await admin.browser.get('/api/application/settings');
    expect(initial.statusCode).toBe(200);
    expect(initial.json()).toEqual({
      object: 'panel_settings',
      attributes: {
        app_name: 'Env Panel',
        '2fa_required': 0,
        mail_url: '',
        mail_from: 'Env <env@example.com>',
        recaptcha_enabled: false,
        recaptcha_site_key: '',
        recaptcha_secret_key_set: false,
        default_language: 'en',
        // The local node's ports (DEMO_PORT_RANGE).
        allocations_enabled: true,
        allocations_range_start: 25565,
        allocations_range_end: 25575,
        sso_required: false,
      },
    });

    const saved = await patch({
      app_name: 'Acme Hosting',
      '2fa_required': '0',
      mail_url: 'smtp://mailer:secret@mail.example.com:587',
      mail_from: 'Acme <panel@acme.test>',
      recaptcha_enabled: true,
      recaptcha_site_key: 'site-key',
      recaptcha_secret_key: 'very-secret',
      default_language: 'en',
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const attributes = {
      app_name: 'Acme Hosting',
      '2fa_required': 0,
      // The SMTP password never comes back.
      mail_url: 'smtp://mailer:********@mail.example.com:587',
      mail_from: 'Acme <panel@acme.test>',
      recaptcha_enabled: true,
      recaptcha_site_key: 'site-key',
      recaptcha_secret_key_set: true,
      default_language: 'en',
      allocations_enabled: true,
      allocations_range_start: 25565,
      allocations_range_end: 25575,
      sso_required: false,
    };
    expect(saved.json().attributes).toEqual(attributes);
    expect(saved.body).not.toContain('very-secret');
    expect(saved.body).not.toContain('secret@');
    // Sent back masked (as the form does), the stored password stays.
    const masked = await patch({ mail_url: 'smtp://mailer:********@mail.example.com:587' });
    expect(masked.statusCode).toBe(200);
    expect((await t.ctx.settings.mail()).url).toBe('smtp://mailer:secret@mail.example.com:587');

    // An empty secret keeps the stored one; secrets are sealed at rest.
    const again = await patch({ recaptcha_secret_key: '', app_name: 'Acme' });
    expect(again.json().attributes).toEqual({ ...attributes, app_name: 'Acme' });
    expect((await t.ctx.settings.recaptcha()).secretKey).toBe('very-secret');
    const stored = await t.db.selectFrom('settings').select(['key', 'value']).execute();
    expect(stored.map((row) => row.value).join(' ')).not.toMatch(/very-secret|mailer:secret/);

    // An empty mail URL is the file outbox, whatever MAIL_URL says.
    expect((await patch({ mail_url: '' })).json().attributes.mail_url).toBe('');
  });

  it('stores who may create allocations and from which ports, the range never ending below its start', async () => {
    const saved = await patch({
      allocations_enabled: false,
      allocations_range_start: '30000',
      allocations_range_end: 30100,
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().attributes).toMatchObject({
      allocations_enabled: false,
      allocations_range_start: 30000,
      allocations_range_end: 30100,
    });
    expect(await t.ctx.settings.clientAllocations()).toEqual({
      enabled: false,
      rangeStart: 30000,
      rangeEnd: 30100,
    });

    const backwards = await patch({ allocations_range_start: 30200 });
    expect(backwards.statusCode).toBe(422);
    expect(backwards.json().errors[0]).toMatchObject({
      detail: 'The allocations range end must be greater than or equal 30200.',
      meta: { source_field: 'allocations_range_end', rule: 'gte' },
    });
    const low = await patch({ allocations_range_start: 80 });
    expect(low.json().errors[0]).toMatchObject({
      meta: { source_field: 'allocations_range_start', rule: 'between' },
    });
    expect((await t.ctx.settings.clientAllocations()).rangeStart).toBe(30000);
    await patch({ allocations_enabled: true, allocations_range_start: 25565, allocations_range_end: 25575 });
  });

  it('answers 422 for bad fields, and for reCAPTCHA without keys', async () => {
    const invalid = await patch({
      app_name: '',
      '2fa_required': 3,
      mail_url: 'http://mail.example.com',
      default_language: 'tlh',
    });
    expect(invalid.statusCode).toBe(422);
    expect(invalid.json().errors.map((e: { detail: string }) => e.detail)).toEqual([
      'The app name field is required.',
      'The 2fa required must be between 0 and 2.',
      'The mail url format is invalid.',
      'The selected default language is invalid.',
    ]);
    const noKeys = await patch({ recaptcha_enabled: true, recaptcha_site_key: 'site' });
    expect(noKeys.statusCode).toBe(422);
    expect(noKeys.json().errors[0]).toMatchObject({
      detail: 'The recaptcha secret key field is required.',
      meta: { source_field: 'recaptcha_secret_key', rule: 'required' },
    });
    expect(await t.db.selectFrom('settings').select('key').execute()).toEqual([]);
  });

  it('shows a new product name and reCAPTCHA site key on the next page', async () => {
    await patch({
      app_name: 'Brand <New>',
      recaptcha_enabled: true,
      recaptcha_site_key: 'the-site-key',
      recaptcha_secret_key: 'the-secret',
    });
    const page = await new TestBrowser(t.app).open('/auth/login');
    expect(page.body).toContain('<title>Brand &lt;New&gt;</title>');
    expect(page.body).toContain('"name":"Brand \\u003cNew\\u003e"');
    expect(page.body).toContain('"recaptcha":{"enabled":true,"siteKey":"the-site-key"}');
    expect(page.headers['content-security-policy']).toContain('https://www.google.com/recaptcha/');
    // Sign-in now wants a captcha response.
    const login = await new TestBrowser(t.app).post('/auth/login', { user: 'x', password: 'y' });
    expect(login.statusCode).toBe(400);
    expect(login.json().errors[0].detail).toBe('Failed to validate reCAPTCHA data.');
  });

  it('enforces a 2FA requirement at once', async () => {
    const { user, password } = await createTestUser(t.ctx);
    const browser = new TestBrowser(t.app);
    await browser.signIn(user.username, password);
    expect((await browser.get('/api/client/permissions')).statusCode).toBe(200);
    expect((await patch({ '2fa_required': 2 })).statusCode).toBe(200);
    const refused = await browser.get('/api/client/permissions');
    expect(refused.statusCode).toBe(400);
    expect(refused.json().errors[0].code).toBe('TwoFactorAuthRequiredException');
  });

  it("sends a test mail to the admin's address through the current transport", async () => {
    const sent = await admin.browser.post('/api/application/settings/mail/test');
    expect(sent.statusCode, sent.body).toBe(204);
    const dir = join(t.dataDir, 'mail');
    const mails = readdirSync(dir)
      .filter((name) => name.endsWith('.eml'))
      .map((name) => readFileSync(join(dir, name), 'utf8'));
    expect(mails).toHaveLength(1);
    expect(mails[0]).toContain(`To: ${admin.email}`);
    expect(mails[0]).toMatch(/^Subject: Env Panel: Test Message$/m);
    expect(mails[0]).toContain('From: Env <env@example.com>');

    const port = await closedPort();
    await patch({ mail_url: `smtp://127.0.0.1:${port}` });
    const failed = await admin.browser.post('/api/application/settings/mail/test');
    expect(failed.statusCode).toBe(400);
    expect(failed.json().errors[0].code).toBe('DisplayException');
    expect(failed.json().errors[0].detail).toMatch(/^The test mail could not be sent: .*ECONNREFUSED/);
  });

  it("lets a root admin's account key in, never an application key", async () => {
    const { admin: owner, bearer } = await createAdminWithKey(t.ctx);
    const refused = await applicationRequest(t.app, bearer, 'PATCH', 'settings', { app_name: 'Nope' });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().errors[0].detail).toBe(
      "The panel settings cannot be read or changed with an application API key; use an administrator's session or account API key.",
    );
    expect((await applicationRequest(t.app, bearer, 'GET', 'settings')).statusCode).toBe(403);
    const { key, secret } = await t.ctx.apiKeys.create(owner, { description: 'account', allowedIps: [] });
    const account = await applicationRequest(t.app, `${key.identifier}${secret}`, 'GET', 'settings');
    expect(account.statusCode).toBe(200);
  });
});

describe('the admin audit log of the panel settings', () => {
  /** The newest entry about the settings. */
  const lastEntry = async () => (await auditEntriesAbout(t.db, 'settings', null)).at(-1);

  it('records a change once with before and after, never the SMTP password or reCAPTCHA secret', async () => {
    const before = await auditEntryCount(t.db);
    const saved = await patch({
      app_name: 'Audited Panel',
      mail_url: 'smtp://mailer:hunter2@mail.example.com:587',
      recaptcha_enabled: true,
      recaptcha_site_key: 'site-key',
      recaptcha_secret_key: 'very-secret',
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(await auditEntryCount(t.db)).toBe(before + 1);
    const entry = await lastEntry();
    expect(entry).toMatchObject({
      action: 'settings.update',
      actorId: admin.id,
      actorName: admin.username,
      apiKey: null,
      ip: '127.0.0.1',
      before: { app_name: 'Env Panel', mail_url: '', recaptcha_enabled: false },
      after: {
        ...saved.json().attributes,
        // A flag says whether a secret exists, never what it is: the log shows it.
        recaptcha_secret_key_set: true,
        // Set by this change, so named, never shown.
        mail_password: '[redacted]',
        recaptcha_secret_key: '[redacted]',
      },
    });
    expect(entry?.after?.mail_url).toBe('smtp://mailer:********@mail.example.com:587');
    const stored = JSON.stringify(
      await t.db.selectFrom('admin_audit_log').select(['before', 'after']).execute(),
    );
    expect(stored).not.toMatch(/hunter2|very-secret/);

    // The form sends the masked password back: the password is kept, so the entry does not name it.
    const resent = await patch({
      mail_url: 'smtp://mailer:********@mail.example.com:587',
      app_name: 'Again',
    });
    expect(resent.statusCode).toBe(200);
    const again = await lastEntry();
    expect(again?.after).toMatchObject({ app_name: 'Again' });
    expect(again?.after).not.toHaveProperty('mail_password');
    expect(again?.after).not.toHaveProperty('recaptcha_secret_key');
  });

  it('records nothing for a change that fails, nor for a test mail', async () => {
    const before = await auditEntryCount(t.db);
    expect((await patch({ app_name: '' })).statusCode).toBe(422);
    expect((await patch({ recaptcha_enabled: true, recaptcha_site_key: 'site' })).statusCode).toBe(422);
    expect((await patch({ allocations_range_start: 30000, allocations_range_end: 29000 })).statusCode).toBe(
      422,
    );
    expect((await admin.browser.post('/api/application/settings/mail/test')).statusCode).toBe(204);
    expect(await auditEntryCount(t.db)).toBe(before);
  });
});

import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { TestBrowser } from '@aerie/panel/test/browser';
import { buildTestApp, type TestApp } from '@aerie/panel/test/build-test-app';
import { createTestUser, enableTwoFactor } from '@aerie/panel/test/factories';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

let t: TestApp;
let outbox: string;
beforeAll(async () => {
  t = await buildTestApp();
  outbox = join(t.dataDir, 'mail');
});
afterAll(() => t.close());
beforeEach(() => rmSync(outbox, { recursive: true, force: true }));

let ipSequence = 0;
const newBrowser = () => new TestBrowser(t.app, `10.30.0.${++ipSequence}`);

/** The messages the file outbox wrote, decoded from quoted-printable just enough to read links. */
async function sentMail(): Promise<string[]> {
  await t.ctx.mailer.drain();
  if (!existsSync(outbox)) return [];
  return readdirSync(outbox)
    .filter((name) => name.endsWith('.eml'))
    .map((name) =>
      readFileSync(join(outbox, name), 'utf8')
        .replace(/=\r?\n/g, '')
        .replace(/=3D/g, '='),
    );
}

function resetLinkIn(mail: string): { token: string; email: string } {
  const link = /http:\/\/panel\.test\/auth\/password\/reset\/([0-9a-f]{64})\?email=([^\s"<>]+)/.exec(mail);
  if (!link) throw new Error(`no reset link in:\n${mail}`);
  return { token: link[1] as string, email: decodeURIComponent(link[2] as string) };
}

const linkSent = { status: 'We have e-mailed your password reset link!' };

describe('POST /auth/password', () => {
  it('mails a reset link to an existing account', async () => {
    const { user } = await createTestUser(t.ctx, { email: 'carol@example.com' });
    const response = await newBrowser().post('/auth/password', { email: 'Carol@Example.com' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual(linkSent);
    const [mail, ...more] = await sentMail();
    expect(more).toHaveLength(0);
    expect(mail).toMatch(/^To: carol@example\.com$/m);
    expect(mail).toMatch(/^From: Aerie <no-reply@localhost>$/m);
    expect(resetLinkIn(mail as string)).toEqual({ token: expect.any(String), email: user.email });
  });

  it('answers the same for an unknown address and sends nothing', async () => {
    const response = await newBrowser().post('/auth/password', { email: 'nobody@example.com' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual(linkSent);
    expect(await sentMail()).toEqual([]);
  });

  it('refuses a missing or malformed email with 422', async () => {
    const browser = newBrowser();
    const missing = await browser.post('/auth/password', {});
    expect(missing.statusCode).toBe(422);
    expect(missing.json().errors).toEqual([
      {
        code: 'ValidationException',
        status: '422',
        detail: 'The email field is required.',
        meta: { source_field: 'email', rule: 'required' },
      },
    ]);
    const malformed = await newBrowser().post('/auth/password', { email: 'not-an-email' });
    expect(malformed.json().errors[0]).toMatchObject({
      detail: 'The email must be a valid email address.',
      meta: { source_field: 'email', rule: 'email' },
    });
  });

  it('allows two requests a minute per email and address, then 429 Too Many Attempts', async () => {
    const browser = newBrowser();
    expect((await browser.post('/auth/password', { email: 'a@example.com' })).statusCode).toBe(200);
    expect((await browser.post('/auth/password', { email: 'A@example.com' })).statusCode).toBe(200);
    const third = await browser.post('/auth/password', { email: 'a@example.com' });
    expect(third.statusCode).toBe(429);
    expect(third.json()).toEqual({
      errors: [{ code: 'TooManyRequestsHttpException', status: '429', detail: 'Too Many Attempts.' }],
    });
    expect(Number(third.headers['retry-after'])).toBeGreaterThan(0);
    // Someone else from the same address, and the same email from another address, are not affected.
    expect((await browser.post('/auth/password', { email: 'b@example.com' })).statusCode).toBe(200);
    expect((await newBrowser().post('/auth/password', { email: 'a@example.com' })).statusCode).toBe(200);
  });

  it('allows ten requests a minute from one address for all emails together', async () => {
    const browser = newBrowser();
    for (let i = 0; i < 10; i++) {
      expect((await browser.post('/auth/password', { email: `many${i}@example.com` })).statusCode).toBe(200);
    }
    const eleventh = await browser.post('/auth/password', { email: 'many10@example.com' });
    expect(eleventh.statusCode).toBe(429);
    expect(eleventh.json().errors[0].detail).toBe('Too Many Attempts.');
  });

  it('sends a new link for the same address at most once a minute', async () => {
    await createTestUser(t.ctx, { email: 'dave@example.com' });
    await newBrowser().post('/auth/password', { email: 'dave@example.com' });
    await newBrowser().post('/auth/password', { email: 'dave@example.com' });
    expect(await sentMail()).toHaveLength(1);
    t.advanceClock(61_000);
    try {
      await newBrowser().post('/auth/password', { email: 'dave@example.com' });
      expect(await sentMail()).toHaveLength(2);
    } finally {
      t.advanceClock(-61_000);
    }
  });
});

describe('POST /auth/password/reset', () => {
  async function requestLink(email: string) {
    await newBrowser().post('/auth/password', { email });
    const mails = await sentMail();
    return resetLinkIn(mails[mails.length - 1] as string);
  }

  it('sets the new password from the mailed link, signs this browser in and everyone else out', async () => {
    const { user, password } = await createTestUser(t.ctx, { email: 'erin@example.com' });
    const elsewhere = newBrowser();
    await elsewhere.signIn(user.username, password);
    expect((await elsewhere.get('/api/client/account')).statusCode).toBe(200);

    const { token, email } = await requestLink('erin@example.com');
    const browser = newBrowser();
    await browser.open(`/auth/password/reset/${token}?email=${encodeURIComponent(email)}`);
    const response = await browser.post('/auth/password/reset', {
      email,
      token,
      password: 'a brand new password',
      password_confirmation: 'a brand new password',
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ success: true, redirect_to: '/', send_to_login: false });
    expect((await browser.get('/api/client/account')).json().attributes.email).toBe('erin@example.com');
    expect((await elsewhere.get('/api/client/account')).statusCode).toBe(401);

    const old = await newBrowser().post('/auth/login', { user: user.username, password });
    expect(old.statusCode).toBe(400);
    const fresh = await newBrowser().post('/auth/login', {
      user: user.username,
      password: 'a brand new password',
    });
    expect(fresh.statusCode).toBe(200);

    // The token worked once.
    const reused = await newBrowser().post('/auth/password/reset', {
      email,
      token,
      password: 'yet another password',
      password_confirmation: 'yet another password',
    });
    expect(reused.statusCode).toBe(400);
    expect(reused.json()).toEqual({
      errors: [{ code: 'DisplayException', status: '400', detail: 'This password reset token is invalid.' }],
    });
  });

  it('does not sign in a user with 2FA, and says to log in', async () => {
    const { user } = await createTestUser(t.ctx, { email: 'frank@example.com' });
    await enableTwoFactor(t.ctx, user);
    const { token, email } = await requestLink('frank@example.com');
    const browser = newBrowser();
    const response = await browser.post('/auth/password/reset', {
      email,
      token,
      password: 'a brand new password',
      password_confirmation: 'a brand new password',
    });
    expect(response.json()).toEqual({ success: true, redirect_to: '/', send_to_login: true });
    expect((await browser.get('/api/client/account')).statusCode).toBe(401);
  });

  it('refuses a wrong token, another address, and a link older than 60 minutes', async () => {
    await createTestUser(t.ctx, { email: 'gina@example.com' });
    await createTestUser(t.ctx, { email: 'hank@example.com' });
    const { token } = await requestLink('gina@example.com');
    const body = { password: 'a brand new password', password_confirmation: 'a brand new password' };
    const invalid = {
      errors: [{ code: 'DisplayException', status: '400', detail: 'This password reset token is invalid.' }],
    };

    const wrongToken = await newBrowser().post('/auth/password/reset', {
      ...body,
      email: 'gina@example.com',
      token: 'f'.repeat(64),
    });
    expect(wrongToken.statusCode).toBe(400);
    expect(wrongToken.json()).toEqual(invalid);
    const otherEmail = await newBrowser().post('/auth/password/reset', {
      ...body,
      email: 'hank@example.com',
      token,
    });
    expect(otherEmail.json()).toEqual(invalid);

    t.advanceClock(61 * 60 * 1000);
    try {
      const expired = await newBrowser().post('/auth/password/reset', {
        ...body,
        email: 'gina@example.com',
        token,
      });
      expect(expired.statusCode).toBe(400);
      expect(expired.json()).toEqual(invalid);
    } finally {
      t.advanceClock(-61 * 60 * 1000);
    }
  });

  it('answers 429 after 5 wrong tokens for one email from one address, and nobody else is held up', async () => {
    await createTestUser(t.ctx, { email: 'ivan@example.com' });
    const body = { password: 'a brand new password', password_confirmation: 'a brand new password' };
    const guesser = newBrowser();
    for (let i = 0; i < 5; i++) {
      const wrong = await guesser.post('/auth/password/reset', {
        ...body,
        email: 'ivan@example.com',
        token: `${i}`.repeat(64),
      });
      expect(wrong.statusCode).toBe(400);
    }
    const sixth = await guesser.post('/auth/password/reset', {
      ...body,
      email: 'ivan@example.com',
      token: 'a'.repeat(64),
    });
    expect(sixth.statusCode).toBe(429);
    expect(sixth.json().errors[0]).toEqual({
      code: 'TooManyRequestsHttpException',
      status: '429',
      detail: 'Too Many Attempts.',
    });
    // The owner, from their own address, still resets with the mailed link.
    const { token } = await requestLink('ivan@example.com');
    const owner = await newBrowser().post('/auth/password/reset', {
      ...body,
      email: 'ivan@example.com',
      token,
    });
    expect(owner.statusCode).toBe(200);
  });

  it('refuses a short or unconfirmed password with 422 entries', async () => {
    const response = await newBrowser().post('/auth/password/reset', {
      email: 'x@example.com',
      token: 'abc',
      password: 'short',
      password_confirmation: 'different',
    });
    expect(response.statusCode).toBe(422);
    expect(response.json().errors).toEqual([
      {
        code: 'ValidationException',
        status: '422',
        detail: 'The password must be at least 8 characters.',
        meta: { source_field: 'password', rule: 'min' },
      },
      {
        code: 'ValidationException',
        status: '422',
        detail: 'The password confirmation does not match.',
        meta: { source_field: 'password', rule: 'confirmed' },
      },
    ]);
  });
});

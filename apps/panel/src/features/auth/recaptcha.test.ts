import { TestBrowser } from '@aerie/panel/test/browser';
import { buildTestApp, type TestApp } from '@aerie/panel/test/build-test-app';
import { createTestUser } from '@aerie/panel/test/factories';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { signInLimits } from './sign-in-throttle';

/** A local stand-in for Google's siteverify: only the response "human" passes, and it records what it got. */
let siteverify: FastifyInstance;
const received: Record<string, string>[] = [];
let t: TestApp;

beforeAll(async () => {
  siteverify = Fastify();
  siteverify.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string' },
    (_r, body, done) => done(null, Object.fromEntries(new URLSearchParams(String(body)))),
  );
  siteverify.post('/siteverify', async (request) => {
    const form = request.body as Record<string, string>;
    received.push(form);
    return { success: form.secret === 'the-secret' && form.response === 'human' };
  });
  const url = await siteverify.listen({ host: '127.0.0.1', port: 0 });
  t = await buildTestApp({
    env: {
      RECAPTCHA_ENABLED: 'true',
      RECAPTCHA_SITE_KEY: 'the-site-key',
      RECAPTCHA_SECRET_KEY: 'the-secret',
      RECAPTCHA_VERIFY_URL: `${url}/siteverify`,
    },
  });
});
afterAll(async () => {
  await t.close();
  await siteverify.close();
});
beforeEach(() => {
  received.length = 0;
});

const captchaFailed = {
  errors: [{ code: 'HttpException', status: '400', detail: 'Failed to validate reCAPTCHA data.' }],
};

describe('reCAPTCHA on sign-in and forgotten password', () => {
  it('puts the site key in the shell', async () => {
    const page = await new TestBrowser(t.app).open('/auth/login');
    expect(page.body).toContain('"recaptcha":{"enabled":true,"siteKey":"the-site-key"}');
  });

  it('refuses a login without a captcha response, before checking the password', async () => {
    const { user, password } = await createTestUser(t.ctx);
    const response = await new TestBrowser(t.app).post('/auth/login', { user: user.username, password });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual(captchaFailed);
    expect(received).toHaveLength(0);
  });

  it('refuses a login whose response siteverify rejects', async () => {
    const { user, password } = await createTestUser(t.ctx);
    const response = await new TestBrowser(t.app, '10.40.0.1').post('/auth/login', {
      user: user.username,
      password,
      'g-recaptcha-response': 'robot',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual(captchaFailed);
    expect(received).toEqual([{ secret: 'the-secret', response: 'robot', remoteip: '10.40.0.1' }]);
  });

  it('signs in when siteverify accepts the response', async () => {
    const { user, password } = await createTestUser(t.ctx);
    const response = await new TestBrowser(t.app).post('/auth/login', {
      user: user.username,
      password,
      'g-recaptcha-response': 'human',
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().data.complete).toBe(true);
  });

  it('checks the forgotten-password form too', async () => {
    const refused = await new TestBrowser(t.app, '10.40.0.2').post('/auth/password', {
      email: 'a@example.com',
    });
    expect(refused.json()).toEqual(captchaFailed);
    const accepted = await new TestBrowser(t.app, '10.40.0.3').post('/auth/password', {
      email: 'a@example.com',
      'g-recaptcha-response': 'human',
    });
    expect(accepted.statusCode).toBe(200);
  });

  it('fails closed when siteverify cannot be reached', async () => {
    const unreachable = await buildTestApp({
      env: {
        RECAPTCHA_ENABLED: 'true',
        RECAPTCHA_SITE_KEY: 'k',
        RECAPTCHA_SECRET_KEY: 's',
        RECAPTCHA_VERIFY_URL: 'http://127.0.0.1:9/siteverify',
      },
    });
    try {
      const response = await new TestBrowser(unreachable.app).post('/auth/password', {
        email: 'a@example.com',
        'g-recaptcha-response': 'human',
      });
      expect(response.json()).toEqual(captchaFailed);
    } finally {
      await unreachable.close();
    }
  });
});

describe('the per-account slow-down with reCAPTCHA on', () => {
  it('lets the owner in from a new address with the captcha while strangers fail against the account', async () => {
    const { user, password } = await createTestUser(t.ctx);
    for (let i = 0; i < signInLimits.accountFreeFailures + 3; i++) {
      const response = await new TestBrowser(t.app, `10.41.0.${i + 1}`).post('/auth/login', {
        user: user.username,
        password: 'wrong',
        'g-recaptcha-response': 'human',
      });
      expect(response.statusCode).toBe(400);
    }
    // The captcha every attempt passed stands in for the wait.
    const owner = await new TestBrowser(t.app, '10.41.1.1').post('/auth/login', {
      user: user.username,
      password,
      'g-recaptcha-response': 'human',
    });
    expect(owner.statusCode).toBe(200);
  });
});

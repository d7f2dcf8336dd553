import { buildTestApp, type TestApp } from '@aerie/panel/test/build-test-app';
import { errorMessages } from '@aerie/shared/errors/error-envelope';
import { whileEventLoopBehind } from '@aerie/shared/net/testing/event-loop-behind';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ env: { PANEL_MAX_EVENT_LOOP_DELAY: '50' } });
});
afterAll(() => t.close());

describe('admission control', () => {
  it('answers 503 with Retry-After in the error envelope while the event loop is behind, before even checking who asks, and still takes a sign-in and the web app files', async () => {
    const seen = await whileEventLoopBehind(async () => {
      const refused = await t.app.inject({ method: 'GET', url: '/api/client' });
      if (refused.statusCode !== 503) return undefined;
      const signIn = await t.app.inject({
        method: 'POST',
        url: '/auth/login',
        headers: { 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest' },
        payload: { user: 'nobody', password: 'wrong' },
      });
      const asset = await t.app.inject({ method: 'GET', url: '/locales/en/translation.json' });
      return { refused, signIn, asset };
    });
    const { refused, signIn, asset } = seen ?? {};
    expect(refused?.statusCode).toBe(503);
    expect(refused?.headers['retry-after']).toBe('2');
    expect(refused?.json()).toEqual({
      errors: [{ code: 'ServiceUnavailableHttpException', status: '503', detail: errorMessages.overloaded }],
    });
    expect(signIn?.statusCode).not.toBe(503);
    // The web app's own files too: a page that loaded shows the API's refusals instead of breaking.
    expect(asset?.statusCode).not.toBe(503);
    // Once the loop has caught up, the same request is checked as usual: no session, 401.
    await expect
      .poll(async () => (await t.app.inject({ method: 'GET', url: '/api/client' })).statusCode, {
        timeout: 10_000,
        interval: 200,
      })
      .toBe(401);
  });
});

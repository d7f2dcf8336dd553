import { buildTestApp, type TestApp } from '@aerie/panel/test/build-test-app';
import { errorMessages } from '@aerie/shared/errors/error-envelope';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/** Blocks the panel's event loop (this process's) for `ms`, as a flood of work would. */
function block(ms: number) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    // busy on purpose
  }
}

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ env: { PANEL_MAX_EVENT_LOOP_DELAY: '50' } });
});
afterAll(() => t.close());

describe('admission control', () => {
  it('answers 503 with Retry-After in the error envelope while the event loop is behind, before even checking who asks, and still takes a sign-in and the web app files', async () => {
    let refused: Awaited<ReturnType<typeof t.app.inject>> | undefined;
    let signIn: Awaited<ReturnType<typeof t.app.inject>> | undefined;
    let asset: Awaited<ReturnType<typeof t.app.inject>> | undefined;
    for (let round = 0; round < 20 && !refused; round++) {
      block(400);
      // Long enough for the overdue tick to run; every tick in the window is late, so the mean is too.
      await new Promise((resolve) => setTimeout(resolve, 20));
      const answer = await t.app.inject({ method: 'GET', url: '/api/client' });
      if (answer.statusCode === 503) {
        refused = answer;
        signIn = await t.app.inject({
          method: 'POST',
          url: '/auth/login',
          headers: { 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest' },
          payload: { user: 'nobody', password: 'wrong' },
        });
        asset = await t.app.inject({ method: 'GET', url: '/locales/en/translation.json' });
      }
    }
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

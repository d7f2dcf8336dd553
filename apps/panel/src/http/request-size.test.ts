import { JSON_BODY_LIMIT_BYTES } from '@aerie/panel/app';
import { buildTestApp, type TestApp } from '@aerie/panel/test/build-test-app';
import { type FilesScenario, filesScenario } from '@aerie/panel/test/files-scenario';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let t: TestApp;
let f: FilesScenario;
beforeAll(async () => {
  t = await buildTestApp();
  f = await filesScenario(t, []);
});
afterAll(async () => {
  await t.close();
  await f.daemon.close();
});

describe('request bodies cannot make validation slow', () => {
  it('answers a chmod whose mode is a near-megabyte of digits at once, with the numeric rule', async () => {
    // Issue 22: 128,000 digits held the panel for 30 s. This body is eight times that, just under the limit.
    const mode = `${'0'.repeat(JSON_BODY_LIMIT_BYTES - 200)}x`;
    const started = performance.now();
    const response = await f.call(f.owner, 'POST', 'chmod', { root: '/', files: [{ file: 'a', mode }] });
    const ms = performance.now() - started;
    expect(response.statusCode).toBe(422);
    expect(response.json().errors).toEqual([
      {
        code: 'ValidationException',
        status: '422',
        detail: 'The files.0.mode must be a number.',
        meta: { source_field: 'files.0.mode', rule: 'numeric' },
      },
    ]);
    expect(ms).toBeLessThan(1000);
  });

  it('refuses a JSON body over the limit with 413 before any rule sees it', async () => {
    const mode = '7'.repeat(JSON_BODY_LIMIT_BYTES);
    const response = await f.call(f.owner, 'POST', 'chmod', { root: '/', files: [{ file: 'a', mode }] });
    expect(response.statusCode).toBe(413);
    expect(response.json().errors[0]).toMatchObject({ code: 'PostTooLargeException', status: '413' });
    expect(f.daemon.calls.filter((call) => call.path.endsWith('/chmod'))).toEqual([]);
  });

  it('refuses a body nested deeper than 64 levels with 400, and a megabyte of brackets does not take the panel down', async () => {
    const depth = 400_000;
    const deep = `{"description":"Deep key","allowed_ips":${'['.repeat(depth)}${']'.repeat(depth)}}`;
    const response = await f.owner.browser.post('/api/client/account/api-keys', deep);
    expect(response.statusCode).toBe(400);
    expect(response.json().errors[0]).toMatchObject({
      code: 'BadRequestHttpException',
      detail: 'The JSON data passed in the request appears to be malformed: Maximum stack depth exceeded',
    });
    const sixtyFour = `{"description":"Deep key","allowed_ips":${'['.repeat(63)}${']'.repeat(63)}}`;
    expect((await f.owner.browser.post('/api/client/account/api-keys', sixtyFour)).statusCode).toBe(422);
    expect((await f.owner.browser.get('/api/client/account/api-keys')).json().data).toEqual([]);
  });
});

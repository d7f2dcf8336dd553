import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { buildTestApp, type TestApp } from '@aerie/panel/test/build-test-app';
import { type FilesScenario, filesScenario } from '@aerie/panel/test/files-scenario';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let t: TestApp;
let f: FilesScenario;
beforeAll(async () => {
  t = await buildTestApp();
  f = await filesScenario(t, ['file.create']);
});
afterAll(async () => {
  await t.close();
  await f.daemon.close();
});

const MiB = 1024 * 1024;
const writeUrl = (file: string) => `${f.base}/write?file=${encodeURIComponent(file)}`;
/** The daemon call the last request made; a request that made none fails the test here. */
const lastCall = () => {
  const call = f.daemon.calls.at(-1);
  if (!call) throw new Error('the panel made no daemon call');
  return call;
};

/** A raw POST the way the SPA's editor saves: its own content type, the CSRF header. */
const write = (file: string, payload: string | Buffer | Readable, headers: Record<string, string> = {}) =>
  f.owner.browser.request({
    method: 'POST',
    url: writeUrl(file),
    headers: {
      accept: 'application/json',
      'x-requested-with': 'XMLHttpRequest',
      'x-csrf-token': f.owner.browser.csrfToken as string,
      'content-type': 'text/plain',
      ...headers,
    },
    payload,
  });

describe('POST …/files/write', () => {
  beforeAll(async () => {
    await f.owner.browser.open('/');
  });

  it('streams the raw body to the daemon byte for byte, with its Content-Length (204)', async () => {
    const text = 'motd=Héllo  \r\n\tlast line without newline';
    const response = await write('/config/server.properties', text);
    expect(response.statusCode).toBe(204);
    expect(response.body).toBe('');
    const call = lastCall();
    expect(call).toMatchObject({
      method: 'POST',
      path: `/api/servers/${f.server.uuid}/files/write`,
      query: { file: '/config/server.properties' },
    });
    expect(call.headers.authorization).toBe(`Bearer ${f.token}`);
    expect(call.headers['content-type']).toBe('application/octet-stream');
    expect(call.headers['content-length']).toBe(String(Buffer.byteLength(text)));
    expect((call.body as Buffer).equals(Buffer.from(text))).toBe(true);
    expect(f.files.get('config/server.properties')?.toString()).toBe(text);
  });

  it('takes a JSON-typed body as text, never parsing it', async () => {
    const json = '{ "not": "parsed" ,}';
    expect((await write('a.json', json, { 'content-type': 'application/json' })).statusCode).toBe(204);
    expect((lastCall().body as Buffer).toString()).toBe(json);
    expect(lastCall().headers['content-type']).toBe('application/octet-stream');
  });

  it('takes a body with an empty or no Content-Type (jspteroapi sends an empty one)', async () => {
    expect((await write('empty-type.txt', 'motd=a', { 'content-type': '' })).statusCode).toBe(204);
    expect(f.files.get('empty-type.txt')?.toString()).toBe('motd=a');
    const untyped = await f.owner.browser.request({
      method: 'POST',
      url: writeUrl('no-type.txt'),
      headers: { 'x-csrf-token': f.owner.browser.csrfToken as string },
      payload: 'motd=b',
    });
    expect(untyped.statusCode).toBe(204);
    expect(f.files.get('no-type.txt')?.toString()).toBe('motd=b');
  });

  it('takes a form-typed body as the file, unparsed (`curl -d @server.properties` sends that type)', async () => {
    const text = 'motd=A form&max-players=20\n';
    const response = await write('server.properties', text, {
      'content-type': 'application/x-www-form-urlencoded',
    });
    expect(response.statusCode).toBe(204);
    expect(f.files.get('server.properties')?.toString()).toBe(text);
  });

  it('passes binary bodies of several MiB unchanged', async () => {
    const bytes = randomBytes(3 * MiB);
    const response = await write('world/region.bin', bytes, { 'content-type': 'application/octet-stream' });
    expect(response.statusCode).toBe(204);
    expect(lastCall().headers['content-length']).toBe(String(bytes.length));
    expect((lastCall().body as Buffer).equals(bytes)).toBe(true);
  });

  it('gives a chunked body its length before sending it on', async () => {
    const response = await write('chunked.txt', Readable.from([Buffer.from('one '), Buffer.from('two')]), {
      'transfer-encoding': 'chunked',
    });
    expect(response.statusCode).toBe(204);
    expect(lastCall().headers['content-length']).toBe('7');
    expect((lastCall().body as Buffer).toString()).toBe('one two');
  });

  it('writes an empty file from an empty body', async () => {
    expect((await write('empty.txt', '')).statusCode).toBe(204);
    expect(lastCall().headers['content-length']).toBe('0');
    expect(f.files.get('empty.txt')?.length).toBe(0);
  });

  it('refuses a body announced above 100 MiB with 413, without asking the daemon', async () => {
    const before = f.daemon.calls.length;
    // Announced, not sent: the refusal comes from the header alone.
    const response = await write('huge.bin', Readable.from([Buffer.from('x')]), {
      'content-length': String(100 * MiB + 1),
    });
    expect(response.statusCode).toBe(413);
    expect(response.json()).toEqual({
      errors: [
        {
          code: 'PostTooLargeException',
          status: '413',
          detail: 'The file contents may not be larger than 100 MiB.',
        },
      ],
    });
    expect(f.daemon.calls.length).toBe(before);
  });

  it.each([
    ['', 'The file field is required.', 'required'],
    ['?file=', 'The file field is required.', 'required'],
    ['?file=a&file=b', 'The file must be a string.', 'string'],
  ])('answers 422 for write%s', async (query, detail, rule) => {
    const before = f.daemon.calls.length;
    const response = await f.owner.browser.send('POST', `${f.base}/write${query}`, 'text', {
      headers: { 'content-type': 'text/plain' },
    });
    expect(response.statusCode).toBe(422);
    expect(response.json().errors).toEqual([
      { code: 'ValidationException', status: '422', detail, meta: { source_field: 'file', rule } },
    ]);
    expect(f.daemon.calls.length).toBe(before);
  });

  it('needs the CSRF header on a session, like every mutating route', async () => {
    const response = await f.owner.browser.send('POST', writeUrl('x.txt'), 'x', {
      csrf: false,
      headers: { 'content-type': 'text/plain' },
    });
    expect(response.statusCode).toBe(419);
  });

  it("leaves the sibling routes' JSON parsing alone", async () => {
    const response = await f.call(f.owner, 'POST', 'create-folder', '{"name": ', {
      'content-type': 'application/json',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().errors[0].code).toBe('BadRequestHttpException');
  });
});

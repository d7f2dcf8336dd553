import { createHash } from 'node:crypto';
import { PassThrough, Readable } from 'node:stream';
import { buildTestApp, type TestApp } from '@aerie/panel/test/build-test-app';
import { type FilesScenario, filesScenario } from '@aerie/panel/test/files-scenario';
import type { Actor } from '@aerie/panel/test/server-scenario';
import { decodeProtectedHeader, jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

let t: TestApp;
let f: FilesScenario;
beforeAll(async () => {
  t = await buildTestApp();
  f = await filesScenario(t, ['file.read', 'file.read-content', 'file.create']);
  f.files.set('config/server.properties', Buffer.from('motd=hi\n'));
  f.files.set('a-notes.md', Buffer.from('# notes\n'));
});
afterAll(async () => {
  await t.close();
  await f.daemon.close();
});

const MiB = 1024 * 1024;
const lastCall = () => f.daemon.calls.at(-1);
const withAnswer = async <T>(answer: Parameters<FilesScenario['answerWith']>[0], run: () => Promise<T>) => {
  f.answerWith(answer);
  try {
    return await run();
  } finally {
    f.answerWith(undefined);
  }
};

describe('GET …/files/list', () => {
  it("asks the daemon for the directory with the node token and presents its stats as file_object, in the daemon's order", async () => {
    const response = await f.call(f.owner, 'GET', 'list?directory=/');
    expect(response.statusCode).toBe(200);
    expect(lastCall()).toMatchObject({
      method: 'GET',
      path: `/api/servers/${f.server.uuid}/files/list-directory`,
      query: { directory: '/' },
    });
    expect(lastCall()?.headers.authorization).toBe(`Bearer ${f.token}`);
    const file = (name: string, size: number) => ({
      object: 'file_object',
      attributes: {
        name,
        mode: '-rw-r--r--',
        mode_bits: '644',
        size,
        is_file: true,
        is_symlink: false,
        mimetype: 'text/plain; charset=utf-8',
        created_at: '2024-05-07T10:55:57+00:00',
        modified_at: '2024-05-08T09:00:00+00:00',
      },
    });
    expect(response.json()).toEqual({
      object: 'list',
      data: [
        {
          object: 'file_object',
          attributes: {
            name: 'config',
            mode: 'drwxr-xr-x',
            mode_bits: '755',
            size: 4096,
            is_file: false,
            is_symlink: false,
            mimetype: 'inode/directory',
            created_at: '2024-05-07T10:55:57+00:00',
            modified_at: '2024-05-08T09:00:00+00:00',
          },
        },
        file('a-notes.md', 8),
        file('hello.txt', 12),
      ],
    });
  });

  it('lists / without a directory, and keeps spaces in the one given', async () => {
    await f.call(f.owner, 'GET', 'list');
    expect(lastCall()?.query).toEqual({ directory: '/' });
    await f.call(f.owner, 'GET', `list?directory=${encodeURIComponent('/my dir /')}`);
    expect(lastCall()?.query).toEqual({ directory: '/my dir /' });
  });

  it("fills what a daemon leaves out with Pterodactyl's defaults", async () => {
    const response = await withAnswer(
      () => ({ status: 200, body: [{ name: 'odd', mode: '----------', mode_bits: '0', size: 1 }] }),
      () => f.call(f.owner, 'GET', 'list'),
    );
    const { attributes } = response.json().data[0];
    expect(attributes).toMatchObject({
      is_file: true,
      is_symlink: false,
      mimetype: 'application/octet-stream',
    });
    expect(attributes.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$/);
  });

  it('answers 422 for a directory that is not a string', async () => {
    const response = await f.call(f.owner, 'GET', 'list?directory=a&directory=b');
    expect(response.statusCode).toBe(422);
    expect(response.json().errors).toEqual([
      {
        code: 'ValidationException',
        status: '422',
        detail: 'The directory must be a string.',
        meta: { source_field: 'directory', rule: 'string' },
      },
    ]);
  });
});

describe('GET …/files/contents', () => {
  it("passes the daemon's raw bytes through as text/plain", async () => {
    const bytes = Buffer.from([0x68, 0x69, 0x0a, 0xc3, 0xa9, 0xff, 0x00, 0x7b]);
    f.files.set('dir/raw file.bin', bytes);
    const response = await f.call(f.owner, 'GET', `contents?file=${encodeURIComponent('/dir/raw file.bin')}`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(response.headers['content-length']).toBe(String(bytes.length));
    expect(response.rawPayload.equals(bytes)).toBe(true);
    expect(lastCall()).toMatchObject({
      method: 'GET',
      path: `/api/servers/${f.server.uuid}/files/contents`,
      query: { file: '/dir/raw file.bin' },
    });
    expect(lastCall()?.headers.authorization).toBe(`Bearer ${f.token}`);
  });

  it('refuses a file announced above 4 MiB before reading its body: the daemon never has to send it', async () => {
    // The stand-in announces 4 MiB + 1 and then sends nothing: reading the body would hang.
    const silent = new PassThrough();
    const started = Date.now();
    const response = await withAnswer(
      () => ({ status: 200, headers: { 'content-length': String(4 * MiB + 1) }, body: silent }),
      () => f.call(f.owner, 'GET', 'contents?file=big.log'),
    );
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      errors: [
        {
          code: 'FileSizeTooLargeException',
          status: '400',
          detail: 'The file you are attempting to open is too large to view in the file editor.',
        },
      ],
    });
    expect(Date.now() - started).toBeLessThan(5000);
    // Dropping the body closed the connection, which ends the daemon's stream.
    await vi.waitFor(() => expect(silent.destroyed).toBe(true));
  });

  it('opens a file of exactly 4 MiB', async () => {
    f.files.set('four.bin', Buffer.alloc(4 * MiB, 0x61));
    const response = await f.call(f.owner, 'GET', 'contents?file=four.bin');
    expect(response.statusCode).toBe(200);
    expect(response.rawPayload.length).toBe(4 * MiB);
  });

  it('reads an unannounced (chunked) body up to 4 MiB, and refuses it past that', async () => {
    const chunked = (size: number) => () => ({
      status: 200,
      body: Readable.from([Buffer.alloc(size - 1, 0x62), Buffer.from('!')]),
    });
    const small = await withAnswer(chunked(10), () => f.call(f.owner, 'GET', 'contents?file=x'));
    expect(small.statusCode).toBe(200);
    expect(small.headers['transfer-encoding']).toBeUndefined();
    expect(small.body).toBe('bbbbbbbbb!');
    const large = await withAnswer(chunked(4 * MiB + 1), () => f.call(f.owner, 'GET', 'contents?file=x'));
    expect(large.statusCode).toBe(400);
    expect(large.json().errors[0].code).toBe('FileSizeTooLargeException');
  });

  it("relays the daemon's 404 for a missing file", async () => {
    const response = await f.call(f.owner, 'GET', 'contents?file=nope.txt');
    expect(response.statusCode).toBe(404);
    expect(response.json().errors[0]).toEqual({
      code: 'DaemonConnectionException',
      status: '404',
      detail: 'An error occurred on the remote host: The requested resources was not found on the system.',
    });
  });

  it.each(['contents', 'contents?file=', 'contents?file=a&file=b', 'download', 'download?file='])(
    'answers 422 to %s without asking the daemon',
    async (path) => {
      const before = f.daemon.calls.length;
      const response = await f.call(f.owner, 'GET', path);
      expect(response.statusCode).toBe(422);
      const rule = path.includes('&') ? 'string' : 'required';
      expect(response.json().errors).toEqual([
        {
          code: 'ValidationException',
          status: '422',
          detail: rule === 'string' ? 'The file must be a string.' : 'The file field is required.',
          meta: { source_field: 'file', rule },
        },
      ]);
      expect(f.daemon.calls.length).toBe(before);
    },
  );
});

describe('signed URLs (GET …/files/download, GET …/files/upload)', () => {
  const key = () => new TextEncoder().encode(f.token);

  async function signedUrl(actor: Actor, path: string, endpoint: string) {
    const before = Math.floor(Date.now() / 1000);
    const response = await f.call(actor, 'GET', path);
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(Object.keys(body)).toEqual(['object', 'attributes']);
    expect(body.object).toBe('signed_url');
    const url = new URL(body.attributes.url);
    expect(`${url.origin}${url.pathname}`).toBe(`${f.nodeAddress}${endpoint}`);
    expect([...url.searchParams.keys()]).toEqual(['token']);
    const token = url.searchParams.get('token') as string;
    const { payload, protectedHeader } = await jwtVerify(token, key(), {
      algorithms: ['HS256'],
      issuer: 'http://panel.test',
      audience: f.nodeAddress,
    });
    const jti = createHash('md5').update(`${actor.user.id}${f.server.uuid}`).digest('hex');
    expect(protectedHeader).toEqual({ alg: 'HS256', typ: 'JWT', jti });
    const iat = payload.iat as number;
    expect(iat).toBeGreaterThanOrEqual(before);
    expect(iat).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000));
    expect(payload.nbf).toBe(iat - 300);
    expect(payload.exp).toBe(iat + 900);
    return { token, payload, jti };
  }

  it('gives a download URL on the node, with a file_download token naming the decoded path', async () => {
    const file = encodeURIComponent('/logs/latest 100%.log');
    const { payload, jti } = await signedUrl(f.owner, `download?file=${file}`, '/download/file');
    expect(payload).toEqual({
      iss: 'http://panel.test',
      aud: f.nodeAddress,
      jti,
      iat: expect.any(Number),
      nbf: expect.any(Number),
      exp: expect.any(Number),
      user_uuid: f.owner.user.uuid,
      user_id: f.owner.user.id,
      unique_id: expect.stringMatching(/^[A-Za-z0-9]{16}$/),
      server_uuid: f.server.uuid,
      file_path: '/logs/latest 100%.log',
      purpose: 'file_download',
    });
  });

  it('gives an upload URL on the node, with a file_upload token', async () => {
    const { payload, jti } = await signedUrl(f.subuser, 'upload', '/upload/file');
    expect(payload).toEqual({
      iss: 'http://panel.test',
      aud: f.nodeAddress,
      jti,
      iat: expect.any(Number),
      nbf: expect.any(Number),
      exp: expect.any(Number),
      user_uuid: f.subuser.user.uuid,
      user_id: f.subuser.user.id,
      unique_id: expect.stringMatching(/^[A-Za-z0-9]{16}$/),
      server_uuid: f.server.uuid,
      purpose: 'file_upload',
    });
  });

  it('makes every token distinct, with purposes that tell download from upload, and a jti per user and server', async () => {
    const a = await signedUrl(f.owner, 'download?file=hello.txt', '/download/file');
    const b = await signedUrl(f.owner, 'download?file=hello.txt', '/download/file');
    const up = await signedUrl(f.owner, 'upload', '/upload/file');
    expect(a.token).not.toBe(b.token);
    expect(a.payload.unique_id).not.toBe(b.payload.unique_id);
    expect(a.payload.purpose).not.toBe(up.payload.purpose);
    expect(decodeProtectedHeader(a.token).jti).toBe(decodeProtectedHeader(up.token).jti);
    const other = await signedUrl(f.subuser, 'upload', '/upload/file');
    expect(other.jti).not.toBe(up.jti);
  });

  it('signs with the node token only', async () => {
    const { token } = await signedUrl(f.owner, 'upload', '/upload/file');
    await expect(jwtVerify(token, new TextEncoder().encode('not the node token'))).rejects.toThrow();
  });
});

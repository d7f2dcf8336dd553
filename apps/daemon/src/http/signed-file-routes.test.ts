import { randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { JwtDenylist } from '@aerie/daemon/auth/jwt-denylist';
import { JWT_ERROR_MESSAGES } from '@aerie/daemon/auth/jwt-errors';
import { signTestToken } from '@aerie/daemon/auth/testing/sign-token';
import { NOT_FOUND_MESSAGE } from '@aerie/daemon/http-kit/http-errors';
import { TOKEN_USED_MESSAGE } from '@aerie/daemon/http-kit/signed-file-token';
import { NODE_TOKEN, startTestDaemon, type TestDaemon } from '@aerie/daemon/testing/daemon-harness';
import { fileServerConfiguration, rawRequest } from '@aerie/daemon/testing/file-api-fixtures';
import { type PanelStandIn, startPanelStandIn } from '@aerie/daemon/testing/panel-stand-in';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedFileRoutes } from './signed-file-routes';

const UUID = '7b2c4d6e-8f0a-4b1c-9d2e-3f4a5b6c7d8e';
const ELSEWHERE = '1f2e3d4c-5b6a-4978-8695-a4b3c2d1e0f9';
let panel: PanelStandIn;
let daemon: TestDaemon;
let dataDirectory: string;
let root: string;
let outside: string;
const onDisk = (name: string) => path.join(root, name);

// Tokens are signed in the same second as the daemon starts: count its boot a minute earlier.
const start = () =>
  startTestDaemon({
    panel,
    dataDirectory,
    plugins: signedFileRoutes({
      dataDirectory,
      uploadLimitMb: 1,
      denylist: new JwtDenylist({ bootTime: new Date(Date.now() - 60_000) }),
    }),
  });

beforeAll(async () => {
  panel = await startPanelStandIn();
  panel.servers.set(UUID, fileServerConfiguration(UUID));
  dataDirectory = await mkdtemp(path.join(tmpdir(), 'aerie-signed-files-'));
  outside = await mkdtemp(path.join(tmpdir(), 'aerie-signed-outside-'));
  await writeFile(path.join(outside, 'secret.txt'), 'host secret');
  daemon = await start();
  root = path.join(dataDirectory, 'volumes', UUID);
});
afterAll(async () => {
  await daemon.close();
  await panel.close();
  await rm(outside, { recursive: true, force: true });
});

/** A token as the panel signs it, each with its own unique_id unless told. */
const token = (claims: Record<string, unknown>, key = NODE_TOKEN) =>
  signTestToken({ server_uuid: UUID, unique_id: randomUUID().replace(/-/g, ''), ...claims }, { key });
const downloadToken = (file: string, claims: Record<string, unknown> = {}, key = NODE_TOKEN) =>
  token({ purpose: 'file_download', file_path: file, ...claims }, key);
const uploadToken = (claims: Record<string, unknown> = {}) => token({ purpose: 'file_upload', ...claims });
const download = async (jwt: string) =>
  rawRequest(daemon, 'GET', `/download/file?token=${encodeURIComponent(jwt)}`, { token: null });

function form(files: [name: string, content: string | Buffer][], field = 'files'): FormData {
  const body = new FormData();
  for (const [name, content] of files) body.append(field, new Blob([content]), name);
  return body;
}
const upload = async (jwt: string, body: FormData | string, directory = '/') =>
  rawRequest(
    daemon,
    'POST',
    `/upload/file?token=${encodeURIComponent(jwt)}&directory=${encodeURIComponent(directory)}`,
    { body, token: null },
  );

describe('GET /download/file', () => {
  it('streams the file once as an attachment; the second use is refused', async () => {
    await mkdir(onDisk('logs'), { recursive: true });
    await writeFile(onDisk('logs/latest "x".log'), 'line one\nline two\n');
    const jwt = await downloadToken('/logs/latest "x".log');
    const first = await download(jwt);
    expect(first.status).toBe(200);
    expect(first.bytes.toString()).toBe('line one\nline two\n');
    expect(first.headers.get('content-type')).toBe('application/octet-stream');
    expect(first.headers.get('content-length')).toBe('18');
    expect(first.headers.get('content-disposition')).toBe(
      `attachment; filename="latest _x_.log"; filename*=UTF-8''latest%20%22x%22.log`,
    );
    expect(await download(jwt)).toMatchObject({ status: 403, json: { error: TOKEN_USED_MESSAGE } });
  });

  it('keeps a used token used across a daemon restart', { timeout: 20_000 }, async () => {
    await writeFile(onDisk('kept.txt'), 'kept');
    const used = await downloadToken('kept.txt');
    const unused = await downloadToken('kept.txt');
    expect((await download(used)).status).toBe(200);
    await daemon.close({ keepData: true });
    daemon = await start();
    expect(await download(used)).toMatchObject({ status: 403, json: { error: TOKEN_USED_MESSAGE } });
    expect((await download(unused)).bytes.toString()).toBe('kept');
  });

  it('refuses a websocket token, an upload token, an expired one, a bad signature and none', async () => {
    await writeFile(onDisk('a.txt'), 'a');
    const now = Math.floor(Date.now() / 1000);
    const refusals: [string, string][] = [
      [await token({ purpose: 'websocket', file_path: 'a.txt' }), JWT_ERROR_MESSAGES.purpose],
      [await uploadToken({ file_path: 'a.txt' }), JWT_ERROR_MESSAGES.purpose],
      [await downloadToken('a.txt', { iat: now - 1200, exp: now - 60 }), JWT_ERROR_MESSAGES.expired],
      [await downloadToken('a.txt', {}, 'another-node-token-0123456789'), JWT_ERROR_MESSAGES.signature],
      [await downloadToken('a.txt', { unique_id: '' }), JWT_ERROR_MESSAGES.claims],
      ['', JWT_ERROR_MESSAGES.notPresent],
    ];
    for (const [jwt, error] of refusals) {
      expect(await download(jwt), error).toMatchObject({ status: 403, json: { error } });
    }
  });

  it('refuses a token for a server not on this node (404)', async () => {
    expect(await download(await downloadToken('a.txt', { server_uuid: ELSEWHERE }))).toMatchObject({
      status: 404,
      json: { error: NOT_FOUND_MESSAGE },
    });
  });

  it('answers 404 for a directory, a missing file, a path leaving the root and a link to outside', async () => {
    await mkdir(onDisk('folder'), { recursive: true });
    await symlink(path.join(outside, 'secret.txt'), onDisk('secret-link.txt'));
    await symlink(outside, onDisk('outside-dir'));
    for (const file of [
      'folder',
      '/',
      'missing.txt',
      '../../../../etc/passwd',
      `../../${path.basename(outside)}/secret.txt`,
      'outside-dir/secret.txt',
    ]) {
      const response = await download(await downloadToken(file));
      expect(response.status, file).toBe(404);
      expect(response.bytes.toString()).not.toContain('host secret');
    }
    // The link itself is not a regular file: refused without following it.
    const link = await download(await downloadToken('secret-link.txt'));
    expect(link.status).toBe(404);
    expect(link.bytes.toString()).not.toContain('host secret');
  });
});

describe('POST /upload/file', () => {
  it('writes several files into the directory', async () => {
    const response = await upload(
      await uploadToken(),
      form([
        ['plugin.jar', Buffer.from([0xca, 0xfe, 0xba, 0xbe])],
        ['notes.txt', 'hello'],
      ]),
      '/plugins/new',
    );
    expect(response.status).toBe(200);
    expect(await readFile(onDisk('plugins/new/plugin.jar'))).toEqual(Buffer.from([0xca, 0xfe, 0xba, 0xbe]));
    expect(await readFile(onDisk('plugins/new/notes.txt'), 'utf8')).toBe('hello');
    expect(await readdir(path.join(dataDirectory, 'tmp', 'uploads'))).toEqual([]);
  });

  it('is one-time too', async () => {
    const jwt = await uploadToken();
    expect((await upload(jwt, form([['once.txt', '1']]))).status).toBe(200);
    expect(await upload(jwt, form([['twice.txt', '2']]))).toMatchObject({
      status: 403,
      json: { error: TOKEN_USED_MESSAGE },
    });
    await expect(stat(onDisk('twice.txt'))).rejects.toThrow();
  });

  it('refuses a file over the upload limit with 400, and writes none of the upload', async () => {
    const response = await upload(
      await uploadToken(),
      form([
        ['small.txt', 'fits'],
        ['huge.bin', Buffer.alloc(1024 * 1024 + 1, 1)],
      ]),
      '/big',
    );
    expect(response).toMatchObject({
      status: 400,
      json: { error: 'The file "huge.bin" is larger than the upload limit of 1 MiB.' },
    });
    await expect(stat(onDisk('big'))).rejects.toThrow();
    expect(await readdir(path.join(dataDirectory, 'tmp', 'uploads'))).toEqual([]);
  });

  it('refuses file names that are not plain names, writing nothing', async () => {
    for (const name of [
      '../escape.txt',
      '../../../../tmp/escape.txt',
      'sub/dir.txt',
      '..',
      '..\\..\\x.txt',
    ]) {
      const response = await upload(
        await uploadToken(),
        form([
          ['first.txt', 'x'],
          [name, 'evil'],
        ]),
        '/names',
      );
      expect(response.status, name).toBe(400);
      expect(response.json, name).toEqual({
        error: expect.stringContaining('is not valid: it must be a plain name'),
      });
    }
    await expect(stat(onDisk('names'))).rejects.toThrow();
    await expect(stat(onDisk('escape.txt'))).rejects.toThrow();
    await expect(stat(path.join(dataDirectory, 'volumes', 'escape.txt'))).rejects.toThrow();
  });

  it('refuses a directory leaving the root or through a link to outside (404), outside unchanged', async () => {
    for (const directory of ['../..', `/../../${path.basename(outside)}`, '/outside-dir']) {
      const response = await upload(await uploadToken(), form([['dropped.txt', 'evil']]), directory);
      expect(response.status, directory).toBe(404);
    }
    expect(await readdir(outside)).toEqual(['secret.txt']);
  });

  it('refuses a websocket token and a download token', async () => {
    for (const jwt of [await token({ purpose: 'websocket' }), await downloadToken('x.txt')]) {
      expect(await upload(jwt, form([['ws.txt', 'x']]))).toMatchObject({
        status: 403,
        json: { error: JWT_ERROR_MESSAGES.purpose },
      });
    }
    await expect(stat(onDisk('ws.txt'))).rejects.toThrow();
  });

  it('refuses a body that is not a multipart form, or a form without files', async () => {
    expect((await upload(await uploadToken(), 'just text')).status).toBe(400);
    expect((await upload(await uploadToken(), form([['other.txt', 'x']], 'attachments'))).status).toBe(400);
    await expect(stat(onDisk('other.txt'))).rejects.toThrow();
  });

  it('applies the egg denylist (403) and the disk limit (400) per file', async () => {
    panel.servers.set(UUID, fileServerConfiguration(UUID, { denylist: ['*.secret'], diskMb: 1 }));
    expect((await daemon.request('POST', `/api/servers/${UUID}/sync`)).status).toBe(204);
    expect(await upload(await uploadToken(), form([['keys.secret', 'x']]))).toMatchObject({
      status: 403,
      json: { error: 'This file cannot be modified: present in egg denylist.' },
    });
    await expect(stat(onDisk('keys.secret'))).rejects.toThrow();
    const full = await upload(
      await uploadToken(),
      form([['fills-the-disk.bin', Buffer.alloc(1024 * 1024, 2)]]),
    );
    expect(full).toMatchObject({
      status: 400,
      json: { error: 'There is not enough disk space available to perform that action.' },
    });
    await expect(stat(onDisk('fills-the-disk.bin'))).rejects.toThrow();
    panel.servers.set(UUID, fileServerConfiguration(UUID));
    await daemon.request('POST', `/api/servers/${UUID}/sync`);
  });

  it('lets the panel page post from its origin (CORS preflight and answer)', async () => {
    const preflight = await fetch(`${daemon.url}/upload/file?token=x`, {
      method: 'OPTIONS',
      headers: { origin: panel.url, 'access-control-request-method': 'POST' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe(panel.url);
    expect(preflight.headers.get('access-control-allow-methods')).toContain('POST');
    const response = await fetch(`${daemon.url}/upload/file?token=${await uploadToken()}`, {
      method: 'POST',
      headers: { origin: panel.url },
      body: form([['cors.txt', 'ok']]),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBe(panel.url);
  });
});

import { execFileSync } from 'node:child_process';
import { mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { NOT_FOUND_MESSAGE } from '@aerie/daemon/http-kit/http-errors';
import { startTestDaemon, type TestDaemon } from '@aerie/daemon/testing/daemon-harness';
import { fileServerConfiguration, rawRequest } from '@aerie/daemon/testing/file-api-fixtures';
import { type PanelStandIn, startPanelStandIn } from '@aerie/daemon/testing/panel-stand-in';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FILE_BODY_MESSAGES } from './file-bodies';
import { CONTENT_LENGTH_REQUIRED_MESSAGE } from './file-routes';
import { MISSING_AUTHORIZATION_MESSAGE, WRONG_TOKEN_MESSAGE } from './node-auth';

const UUID = '5a1e0f3c-2b4d-4e6f-8a9b-0c1d2e3f4a5b';
const UNKNOWN = '00000000-0000-4000-8000-00000000dead';
const base = `/api/servers/${UUID}/files`;
let panel: PanelStandIn;
let daemon: TestDaemon;
let root: string;
const onDisk = (name: string) => path.join(root, name);

beforeAll(async () => {
  panel = await startPanelStandIn();
  panel.servers.set(UUID, fileServerConfiguration(UUID));
  daemon = await startTestDaemon({ panel });
  root = path.join(daemon.dataDirectory, 'volumes', UUID);
});
afterAll(async () => {
  await daemon.close();
  await panel.close();
});

describe('files API: node token and server', () => {
  it('refuses without the node token (401) and with a wrong one (403)', async () => {
    expect(await daemon.request('GET', `${base}/list-directory`, { token: null })).toMatchObject({
      status: 401,
      body: { error: MISSING_AUTHORIZATION_MESSAGE },
    });
    expect(await daemon.request('POST', `${base}/delete`, { token: 'wrong', body: {} })).toMatchObject({
      status: 403,
      body: { error: WRONG_TOKEN_MESSAGE },
    });
    const write = await rawRequest(daemon, 'POST', `${base}/write?file=x.txt`, { body: 'x', token: 'wrong' });
    expect(write.status).toBe(403);
    await expect(stat(onDisk('x.txt'))).rejects.toThrow();
  });

  it('answers 404 for a server this daemon does not have, on every route', async () => {
    const other = `/api/servers/${UNKNOWN}/files`;
    for (const [method, route] of [
      ['GET', `${other}/list-directory`],
      ['GET', `${other}/contents?file=a`],
      ['PUT', `${other}/rename`],
      ['POST', `${other}/copy`],
      ['POST', `${other}/create-directory`],
      ['POST', `${other}/delete`],
      ['POST', `${other}/compress`],
      ['POST', `${other}/decompress`],
      ['POST', `${other}/chmod`],
    ] as const) {
      expect(await daemon.request(method, route), `${method} ${route}`).toMatchObject({
        status: 404,
        body: { error: NOT_FOUND_MESSAGE },
      });
    }
    expect((await rawRequest(daemon, 'POST', `${other}/write?file=a`, { body: 'a' })).status).toBe(404);
  });
});

describe('files API: reading', () => {
  it('lists a directory: folders first, Wings stat fields', async () => {
    await mkdir(onDisk('list/plugins'), { recursive: true });
    await writeFile(onDisk('list/server.properties'), 'motd=hi\n');
    const response = await daemon.request('GET', `${base}/list-directory?directory=/list`);
    expect(response.status).toBe(200);
    const entries = response.body as { name: string }[];
    expect(entries.map((entry) => entry.name)).toEqual(['plugins', 'server.properties']);
    expect(entries[1]).toEqual({
      name: 'server.properties',
      created: expect.any(String),
      modified: expect.any(String),
      mode: '-rw-r--r--',
      mode_bits: '644',
      size: 8,
      directory: false,
      file: true,
      symlink: false,
      mime: expect.stringMatching(/^text\//),
    });
    expect((await daemon.request('GET', `${base}/list-directory`)).body).toEqual(
      expect.arrayContaining([expect.objectContaining({ name: 'list', directory: true })]),
    );
  });

  it('reads contents as raw bytes with X-Mime-Type and Content-Length, as an attachment with download=1', async () => {
    const bytes = Buffer.from([0, 1, 2, 250, 251, 10]);
    await writeFile(onDisk('blob.bin'), bytes);
    const plain = await rawRequest(daemon, 'GET', `${base}/contents?file=/blob.bin`);
    expect(plain.status).toBe(200);
    expect(plain.bytes.equals(bytes)).toBe(true);
    expect(plain.headers.get('content-length')).toBe('6');
    expect(plain.headers.get('x-mime-type')).toBeTruthy();
    expect(plain.headers.get('content-disposition')).toBeNull();

    await writeFile(onDisk('notes "v2".txt'), 'hello');
    const download = await rawRequest(
      daemon,
      'GET',
      `${base}/contents?file=${encodeURIComponent('notes "v2".txt')}&download=1`,
    );
    expect(download.bytes.toString()).toBe('hello');
    expect(download.headers.get('x-mime-type')).toMatch(/^text\/plain/);
    expect(download.headers.get('content-disposition')).toBe(
      `attachment; filename="notes _v2_.txt"; filename*=UTF-8''notes%20%22v2%22.txt`,
    );
  });

  it('refuses directories and named pipes (400) and a missing file (404)', async () => {
    await mkdir(onDisk('folder'), { recursive: true });
    execFileSync('mkfifo', [onDisk('pipe')]);
    expect((await rawRequest(daemon, 'GET', `${base}/contents?file=folder`)).status).toBe(400);
    expect((await rawRequest(daemon, 'GET', `${base}/contents`)).status).toBe(400);
    const pipe = await rawRequest(daemon, 'GET', `${base}/contents?file=pipe`);
    expect(pipe.status).toBe(400);
    expect(pipe.json).toEqual({ error: 'Cannot perform that action: the path is not a regular file.' });
    expect(await rawRequest(daemon, 'GET', `${base}/contents?file=nope.txt`)).toMatchObject({
      status: 404,
      json: { error: 'The requested resources was not found on the system.' },
    });
    expect((await daemon.request('GET', `${base}/list-directory?directory=/nope`)).status).toBe(404);
  });
});

describe('files API: writing', () => {
  it('writes the raw body of any content type, creating parents, and replaces a file', async () => {
    const first = await rawRequest(daemon, 'POST', `${base}/write?file=/new/dir/config.json`, {
      body: '{"not": "parsed as json"',
      headers: { 'content-type': 'application/json' },
    });
    expect(first.status).toBe(204);
    expect(await readFile(onDisk('new/dir/config.json'), 'utf8')).toBe('{"not": "parsed as json"');
    expect((await stat(onDisk('new/dir'))).mode & 0o777).toBe(0o755);
    const binary = Buffer.alloc(3 * 1024 * 1024, 7);
    const second = await rawRequest(daemon, 'POST', `${base}/write?file=new/dir/config.json`, {
      body: binary,
      headers: { 'content-type': 'application/octet-stream' },
    });
    expect(second.status).toBe(204);
    expect((await readFile(onDisk('new/dir/config.json'))).equals(binary)).toBe(true);
    expect((await rawRequest(daemon, 'POST', `${base}/write?file=empty.txt`, { body: '' })).status).toBe(204);
    expect((await stat(onDisk('empty.txt'))).size).toBe(0);
  });

  it('needs a Content-Length (400) and refuses to write over a directory (400)', async () => {
    const chunked = new ReadableStream({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('streamed'));
        controller.close();
      },
    });
    expect(
      await rawRequest(daemon, 'POST', `${base}/write?file=chunked.txt`, { body: chunked }),
    ).toMatchObject({
      status: 400,
      json: { error: CONTENT_LENGTH_REQUIRED_MESSAGE },
    });
    await expect(stat(onDisk('chunked.txt'))).rejects.toThrow();
    await mkdir(onDisk('a-dir'), { recursive: true });
    expect((await rawRequest(daemon, 'POST', `${base}/write?file=a-dir`, { body: 'x' })).status).toBe(400);
    expect((await stat(onDisk('a-dir'))).isDirectory()).toBe(true);
  });
});

describe('files API: changing files', () => {
  it('creates a directory, renames, copies, chmods and deletes', async () => {
    expect(
      (
        await daemon.request('POST', `${base}/create-directory`, {
          body: { name: 'made/deep', path: '/work' },
        })
      ).status,
    ).toBe(204);
    expect((await stat(onDisk('work/made/deep'))).isDirectory()).toBe(true);

    await writeFile(onDisk('work/a.txt'), 'A');
    expect(
      (
        await daemon.request('PUT', `${base}/rename`, {
          body: { root: '/work', files: [{ from: 'a.txt', to: 'made/b.txt' }] },
        })
      ).status,
    ).toBe(204);
    expect(await readFile(onDisk('work/made/b.txt'), 'utf8')).toBe('A');
    await expect(stat(onDisk('work/a.txt'))).rejects.toThrow();

    expect(
      (await daemon.request('POST', `${base}/copy`, { body: { location: '/work/made/b.txt' } })).status,
    ).toBe(204);
    expect(await readFile(onDisk('work/made/b copy.txt'), 'utf8')).toBe('A');

    expect(
      (
        await daemon.request('POST', `${base}/chmod`, {
          body: { root: '/work/made', files: [{ file: 'b.txt', mode: '600' }] },
        })
      ).status,
    ).toBe(204);
    expect((await stat(onDisk('work/made/b.txt'))).mode & 0o777).toBe(0o600);

    expect(
      (await daemon.request('POST', `${base}/delete`, { body: { root: '/work', files: ['made'] } })).status,
    ).toBe(204);
    expect(await readdir(onDisk('work'))).toEqual([]);
  });

  it('compresses to tar.gz (200, the archive stat) and zip, and decompresses (204)', async () => {
    await mkdir(onDisk('pack/world'), { recursive: true });
    await writeFile(onDisk('pack/world/level.dat'), 'level');
    await writeFile(onDisk('pack/readme.md'), 'read me');
    const tar = await daemon.request('POST', `${base}/compress`, {
      body: { root: '/pack', files: ['world', 'readme.md'] },
    });
    expect(tar.status).toBe(200);
    const archive = tar.body as { name: string; size: number; file: boolean };
    expect(archive).toMatchObject({ name: expect.stringMatching(/^archive-.*\.tar\.gz$/), file: true });
    expect((await stat(onDisk(`pack/${archive.name}`))).size).toBe(archive.size);

    const zip = await daemon.request('POST', `${base}/compress`, {
      body: { root: '/pack', files: ['readme.md'], extension: 'zip' },
    });
    expect(zip).toMatchObject({ status: 200, body: { name: expect.stringMatching(/\.zip$/) } });

    await daemon.request('POST', `${base}/delete`, {
      body: { root: '/pack', files: ['world', 'readme.md'] },
    });
    expect(
      (await daemon.request('POST', `${base}/decompress`, { body: { root: '/pack', file: archive.name } }))
        .status,
    ).toBe(204);
    expect(await readFile(onDisk('pack/world/level.dat'), 'utf8')).toBe('level');
    expect(await readFile(onDisk('pack/readme.md'), 'utf8')).toBe('read me');

    await writeFile(onDisk('pack/not-an-archive.txt'), 'plain text');
    expect(
      await daemon.request('POST', `${base}/decompress`, {
        body: { root: '/pack', file: 'not-an-archive.txt' },
      }),
    ).toMatchObject({
      status: 400,
      body: { error: 'The archive provided is in a format Wings does not understand.' },
    });
  });

  it('answers 422 for a missing, empty or malformed body, with the route text', async () => {
    const cases: [string, string, unknown, string][] = [
      ['PUT', 'rename', undefined, FILE_BODY_MESSAGES.rename],
      ['PUT', 'rename', { root: '/', files: [] }, FILE_BODY_MESSAGES.rename],
      ['PUT', 'rename', { root: '/', files: [{ from: 'a' }] }, FILE_BODY_MESSAGES.rename],
      ['POST', 'copy', {}, FILE_BODY_MESSAGES.copy],
      ['POST', 'create-directory', { path: '/' }, FILE_BODY_MESSAGES.createDirectory],
      ['POST', 'delete', { root: '/', files: [] }, FILE_BODY_MESSAGES.delete],
      ['POST', 'delete', { root: '/', files: [3] }, FILE_BODY_MESSAGES.delete],
      ['POST', 'compress', { root: '/', files: [] }, FILE_BODY_MESSAGES.compress],
      [
        'POST',
        'compress',
        { root: '/', files: ['a'], extension: 'rar' },
        FILE_BODY_MESSAGES.compressExtension,
      ],
      ['POST', 'decompress', { root: '/' }, FILE_BODY_MESSAGES.decompress],
      ['POST', 'chmod', { root: '/', files: [] }, FILE_BODY_MESSAGES.chmod],
      ['POST', 'chmod', { root: '/', files: [{ file: 'a' }] }, FILE_BODY_MESSAGES.chmod],
    ];
    for (const [method, route, body, error] of cases) {
      expect(
        await daemon.request(method, `${base}/${route}`, { body }),
        `${route} ${JSON.stringify(body)}`,
      ).toEqual(expect.objectContaining({ status: 422, body: { error } }));
    }
  });

  it('maps filesystem refusals: existing destination and bad mode 400, missing source 404', async () => {
    await writeFile(onDisk('one.txt'), '1');
    await writeFile(onDisk('two.txt'), '2');
    expect(
      await daemon.request('PUT', `${base}/rename`, {
        body: { root: '/', files: [{ from: 'one.txt', to: 'two.txt' }] },
      }),
    ).toMatchObject({ status: 400, body: { error: 'A file or folder with that name already exists.' } });
    expect(await readFile(onDisk('two.txt'), 'utf8')).toBe('2');
    expect(
      await daemon.request('POST', `${base}/chmod`, {
        body: { root: '/', files: [{ file: 'one.txt', mode: '999' }] },
      }),
    ).toMatchObject({ status: 400, body: { error: '"999" is not a valid file mode.' } });
    expect(
      await daemon.request('POST', `${base}/copy`, { body: { location: '/missing.txt' } }),
    ).toMatchObject({
      status: 404,
    });
    expect(
      await daemon.request('PUT', `${base}/rename`, {
        body: { root: '/', files: [{ from: 'gone', to: 'x' }] },
      }),
    ).toMatchObject({ status: 404 });
  });
});

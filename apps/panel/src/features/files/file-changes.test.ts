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

const lastCall = () => f.daemon.calls.at(-1);

describe('file changes are relayed as the daemon bodies', () => {
  it.each([
    [
      'PUT',
      'rename',
      { root: '/ dir ', files: [{ from: 'a.txt ', to: 'sub/b.txt' }] },
      'PUT',
      'rename',
      { root: '/ dir ', files: [{ to: 'sub/b.txt', from: 'a.txt ' }] },
    ],
    ['POST', 'copy', { location: '/hello.txt' }, 'POST', 'copy', { location: '/hello.txt' }],
    [
      'POST',
      'decompress',
      { root: '/x', file: 'a.zip' },
      'POST',
      'decompress',
      { root: '/x', file: 'a.zip' },
    ],
    ['POST', 'decompress', { file: 'a.zip' }, 'POST', 'decompress', { root: '/', file: 'a.zip' }],
    [
      'POST',
      'delete',
      { root: '/', files: ['a', 'b c'] },
      'POST',
      'delete',
      { root: '/', files: ['a', 'b c'] },
    ],
    [
      'POST',
      'create-folder',
      { root: '/srv', name: 'new' },
      'POST',
      'create-directory',
      { name: 'new', path: '/srv' },
    ],
    ['POST', 'create-folder', { name: 'new' }, 'POST', 'create-directory', { name: 'new', path: '/' }],
    [
      'POST',
      'chmod',
      {
        root: '/',
        files: [
          { file: 'a', mode: '755' },
          { file: 'b', mode: 644 },
        ],
      },
      'POST',
      'chmod',
      {
        root: '/',
        files: [
          { file: 'a', mode: '755' },
          { file: 'b', mode: '644' },
        ],
      },
    ],
  ] as const)(
    '%s %s %o → daemon %s …/files/%s %o (204)',
    async (method, path, body, daemonMethod, action, sent) => {
      const response = await f.call(f.owner, method, path, body);
      expect(response.statusCode).toBe(204);
      expect(response.body).toBe('');
      const call = lastCall();
      expect(call).toMatchObject({
        method: daemonMethod,
        url: `/api/servers/${f.server.uuid}/files/${action}`,
      });
      expect(call?.body).toEqual(sent);
      expect(call?.headers.authorization).toBe(`Bearer ${f.token}`);
      expect(call?.headers['content-type']).toBe('application/json');
    },
  );

  it('compresses into a new archive and answers its file_object (200)', async () => {
    const response = await f.call(f.owner, 'POST', 'compress', { files: ['hello.txt', 'config'] });
    expect(response.statusCode).toBe(200);
    expect(lastCall()).toMatchObject({
      method: 'POST',
      url: `/api/servers/${f.server.uuid}/files/compress`,
      body: { root: '/', files: ['hello.txt', 'config'] },
    });
    expect(response.json()).toEqual({
      object: 'file_object',
      attributes: {
        name: 'archive-2024-05-08T090000Z.tar.gz',
        mode: '-rw-r--r--',
        mode_bits: '644',
        size: 2048,
        is_file: true,
        is_symlink: false,
        mimetype: 'application/tar+gzip',
        created_at: '2024-05-07T10:55:57+00:00',
        modified_at: '2024-05-08T09:00:00+00:00',
      },
    });
  });
});

const required = (field: string, attribute = field) => ({
  code: 'ValidationException',
  status: '422',
  detail: `The ${attribute} field is required.`,
  meta: { source_field: field, rule: 'required' },
});
const mustBe = (field: string, rule: string, what: string) => ({
  code: 'ValidationException',
  status: '422',
  detail: `The ${field} must be ${what}.`,
  meta: { source_field: field, rule },
});

describe('422 for missing or ill-typed inputs (nothing reaches the daemon)', () => {
  it.each([
    ['PUT', 'rename', {}, [required('root'), required('files')]],
    ['PUT', 'rename', { root: '', files: [] }, [required('root'), required('files')]],
    ['PUT', 'rename', { root: '/', files: 'a' }, [mustBe('files', 'array', 'an array')]],
    ['PUT', 'rename', { root: '/', files: ['a'] }, [mustBe('files.0', 'array', 'an array')]],
    ['PUT', 'rename', { root: '/', files: [{ from: 'a' }] }, [required('files.0.to')]],
    [
      'PUT',
      'rename',
      { root: 5, files: [{ from: 1, to: 'b' }] },
      [mustBe('root', 'string', 'a string'), mustBe('files.0.from', 'string', 'a string')],
    ],
    ['POST', 'copy', {}, [required('location')]],
    ['POST', 'copy', { location: ['a'] }, [mustBe('location', 'string', 'a string')]],
    ['POST', 'compress', { root: '/' }, [required('files')]],
    [
      'POST',
      'compress',
      { root: 3, files: ['a', null] },
      [mustBe('root', 'string', 'a string'), mustBe('files.1', 'string', 'a string')],
    ],
    ['POST', 'decompress', { root: '/' }, [required('file')]],
    ['POST', 'delete', { files: ['a'] }, [required('root')]],
    ['POST', 'delete', { root: '/', files: [] }, [required('files')]],
    ['POST', 'create-folder', { root: '/', name: '' }, [required('name')]],
    ['POST', 'chmod', { root: '/', files: [{ file: 'a' }] }, [required('files.0.mode')]],
    [
      'POST',
      'chmod',
      { root: '/', files: [{ file: 'a', mode: 'rwx' }] },
      [mustBe('files.0.mode', 'numeric', 'a number')],
    ],
    ['POST', 'chmod', { root: '/', files: ['a'] }, [required('files.0.file'), required('files.0.mode')]],
  ] as const)('%s %s %o', async (method, path, body, errors) => {
    const before = f.daemon.calls.length;
    const response = await f.call(f.owner, method, path, body);
    expect(response.statusCode).toBe(422);
    expect(response.json()).toEqual({ errors });
    expect(f.daemon.calls.length).toBe(before);
  });

  it('keeps surrounding spaces of names (Laravel does not trim on the files routes) but treats "" as missing', async () => {
    expect((await f.call(f.owner, 'POST', 'create-folder', { root: ' ', name: ' x ' })).statusCode).toBe(204);
    expect(lastCall()?.body).toEqual({ name: ' x ', path: ' ' });
  });
});

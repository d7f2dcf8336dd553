import { mkdir, mkdtemp, readdir, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startTestDaemon, type TestDaemon } from '@aerie/daemon/testing/daemon-harness';
import { fileServerConfiguration, rawRequest } from '@aerie/daemon/testing/file-api-fixtures';
import { type PanelStandIn, startPanelStandIn } from '@aerie/daemon/testing/panel-stand-in';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const UUID = '9c8b7a6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d';
const base = `/api/servers/${UUID}/files`;
const NOT_FOUND = { error: 'The requested resources was not found on the system.' };
const DENIED = { error: 'This file cannot be modified: present in egg denylist.' };
let panel: PanelStandIn;
let daemon: TestDaemon;
let root: string;
/** A directory beside the data directory, standing for the host: nothing in it may change. */
let outside: string;
const onDisk = (name: string) => path.join(root, name);
const outsideName = () => path.basename(outside);

beforeAll(async () => {
  panel = await startPanelStandIn();
  panel.servers.set(UUID, fileServerConfiguration(UUID, { denylist: ['config/secret.yml', '*.lock'] }));
  daemon = await startTestDaemon({ panel });
  root = path.join(daemon.dataDirectory, 'volumes', UUID);
  outside = await mkdtemp(path.join(tmpdir(), 'aerie-files-outside-'));
  await writeFile(path.join(outside, 'host.txt'), 'host file');
  await symlink(outside, onDisk('escape'));
  await symlink(path.join(outside, 'host.txt'), onDisk('host-link.txt'));
});
afterAll(async () => {
  await daemon.close();
  await panel.close();
  await rm(outside, { recursive: true, force: true });
});

/** The host directory exactly as it was made. */
async function expectOutsideUntouched(): Promise<void> {
  expect(await readdir(outside)).toEqual(['host.txt']);
  expect(await readFile(path.join(outside, 'host.txt'), 'utf8')).toBe('host file');
  expect((await stat(path.join(outside, 'host.txt'))).mode & 0o777).toBe(0o644);
}

describe('files API: the jail over HTTP', () => {
  it('refuses to list or read by ../, an absolute host path or a link leaving the root (404)', async () => {
    for (const directory of ['..', '../..', `/../${outsideName()}`, '/escape', 'escape/']) {
      expect(
        await daemon.request('GET', `${base}/list-directory?directory=${encodeURIComponent(directory)}`),
      ).toEqual(expect.objectContaining({ status: 404, body: NOT_FOUND }));
    }
    for (const file of ['../../../../etc/passwd', path.join(outside, 'host.txt'), 'escape/host.txt']) {
      const response = await rawRequest(daemon, 'GET', `${base}/contents?file=${encodeURIComponent(file)}`);
      expect(response.status, file).toBe(404);
      expect(response.bytes.toString()).not.toContain('host file');
    }
    // An absolute path names a file inside the root, never the host's.
    const etc = await rawRequest(daemon, 'GET', `${base}/contents?file=/etc/hostname`);
    expect(etc.status).toBe(404);
    // A link to a host file is not read through (a link is not a regular file).
    const link = await rawRequest(daemon, 'GET', `${base}/contents?file=host-link.txt`);
    expect(link.status).toBe(400);
    expect(link.bytes.toString()).not.toContain('host file');
  });

  it('refuses writes, moves, copies, deletes, chmods and archives that would reach outside', async () => {
    const attempts: [string, string, unknown][] = [
      ['POST', 'create-directory', { name: '../../made', path: '/' }],
      ['POST', 'create-directory', { name: 'made', path: '/escape' }],
      [
        'PUT',
        'rename',
        { root: '/', files: [{ from: 'host-link.txt', to: `../../${outsideName()}/moved.txt` }] },
      ],
      ['PUT', 'rename', { root: '/escape', files: [{ from: 'host.txt', to: '/stolen.txt' }] }],
      ['POST', 'copy', { location: '/escape/host.txt' }],
      ['POST', 'delete', { root: '/', files: [`../${outsideName()}/host.txt`] }],
      ['POST', 'delete', { root: '/escape', files: ['host.txt'] }],
      ['POST', 'chmod', { root: '/escape', files: [{ file: 'host.txt', mode: '777' }] }],
      ['POST', 'chmod', { root: '/', files: [{ file: 'host-link.txt', mode: '777' }] }],
      ['POST', 'compress', { root: '/escape', files: ['host.txt'] }],
      ['POST', 'decompress', { root: '/escape', file: 'host.txt' }],
    ];
    for (const [method, route, body] of attempts) {
      const response = await daemon.request(method, `${base}/${route}`, { body });
      expect(response.status, `${route} ${JSON.stringify(body)}`).toBeGreaterThanOrEqual(400);
      expect(response.status).toBeLessThan(500);
    }
    for (const file of [
      '../outside.txt',
      `/../${outsideName()}/host.txt`,
      'escape/host.txt',
      'host-link.txt',
    ]) {
      const response = await rawRequest(daemon, 'POST', `${base}/write?file=${encodeURIComponent(file)}`, {
        body: 'overwritten',
      });
      expect(response.status, file).toBeGreaterThanOrEqual(400);
    }
    await expectOutsideUntouched();
    await expect(stat(onDisk('stolen.txt'))).rejects.toThrow();
    await expect(stat(path.join(daemon.dataDirectory, 'volumes', 'outside.txt'))).rejects.toThrow();
    expect((await stat(onDisk('host-link.txt'))).isFile()).toBe(true);
  });

  it('applies the egg denylist on write, rename and copy (403), not on reading', async () => {
    await mkdir(onDisk('config'), { recursive: true });
    await writeFile(onDisk('config/secret.yml'), 'token: 1');
    await writeFile(onDisk('config/public.yml'), 'motd: hi');
    expect(
      await rawRequest(daemon, 'POST', `${base}/write?file=config/secret.yml`, { body: 'x' }),
    ).toMatchObject({
      status: 403,
      json: DENIED,
    });
    expect(await rawRequest(daemon, 'POST', `${base}/write?file=world.lock`, { body: 'x' })).toMatchObject({
      status: 403,
    });
    expect(
      await daemon.request('PUT', `${base}/rename`, {
        body: { root: '/config', files: [{ from: 'public.yml', to: 'secret.yml' }] },
      }),
    ).toMatchObject({ status: 403, body: DENIED });
    expect(
      await daemon.request('POST', `${base}/copy`, { body: { location: '/config/secret.yml' } }),
    ).toMatchObject({
      status: 403,
    });
    expect(await readFile(onDisk('config/secret.yml'), 'utf8')).toBe('token: 1');
    expect(await readdir(onDisk('config'))).toEqual(['public.yml', 'secret.yml']);
    expect(
      (await rawRequest(daemon, 'GET', `${base}/contents?file=config/secret.yml`)).bytes.toString(),
    ).toBe('token: 1');
  });

  it('follows a sync: a new denylist and a disk limit apply to the next request', async () => {
    panel.servers.set(UUID, fileServerConfiguration(UUID, { denylist: ['*.jar'], diskMb: 1 }));
    expect((await daemon.request('POST', `/api/servers/${UUID}/sync`)).status).toBe(204);
    expect(
      (await rawRequest(daemon, 'POST', `${base}/write?file=world.lock`, { body: 'now allowed' })).status,
    ).toBe(204);
    expect((await rawRequest(daemon, 'POST', `${base}/write?file=server.jar`, { body: 'x' })).status).toBe(
      403,
    );
    const tooBig = await rawRequest(daemon, 'POST', `${base}/write?file=big.bin`, {
      body: Buffer.alloc(1024 * 1024 + 1),
    });
    expect(tooBig).toMatchObject({
      status: 400,
      json: { error: 'There is not enough disk space available to perform that action.' },
    });
    await expect(stat(onDisk('big.bin'))).rejects.toThrow();
    // Writes through the API count at once: two halves that together pass the limit are not both taken.
    const half = Buffer.alloc(600 * 1024);
    expect((await rawRequest(daemon, 'POST', `${base}/write?file=half-1.bin`, { body: half })).status).toBe(
      204,
    );
    expect((await rawRequest(daemon, 'POST', `${base}/write?file=half-2.bin`, { body: half })).status).toBe(
      400,
    );
    await expect(stat(onDisk('half-2.bin'))).rejects.toThrow();
  });
});

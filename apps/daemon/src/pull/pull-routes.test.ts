import { randomBytes } from 'node:crypto';
import { lookup } from 'node:dns/promises';
import { mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileServerConfiguration } from '@aerie/daemon/testing/file-api-fixtures';
import { type PanelStandIn, startPanelStandIn } from '@aerie/daemon/testing/panel-stand-in';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAllowedNetworks } from './pull-destinations';
import { PULL_BODY_MESSAGE } from './pull-routes';
import type { ResolveHost } from './pull-settings';
import { TOO_MANY_PULLS_MESSAGE } from './remote-pulls';
import { type PullTestDaemon, startPullTestDaemon } from './testing/pull-test-daemon';
import { type RemoteFileServer, serveBytes, startRemoteFileServer } from './testing/remote-file-server';

const SERVER = '9c1f2a3b-4d5e-4f60-8a7b-8c9d0e1f2a3b';
const SMALL = '9c1f2a3b-4d5e-4f60-8a7b-8c9d0e1f2a3c';
const pull = `/api/servers/${SERVER}/files/pull`;
const QUOTA_MESSAGE = 'There is not enough disk space available to perform that action.';

/**
 * Names as a resolver would answer them: `files.example.com` is the allowed test host (127.0.0.2),
 * `rebind.example.com` a public-looking name that resolves to loopback, `flip.example.com` one that changes its
 * answer after the first question. Anything else: the system's resolver.
 */
let flips = 0;
const resolve: ResolveHost = async (hostname) => {
  if (hostname === 'files.example.com') return [{ address: '127.0.0.2', family: 4 }];
  // DNS rebinding: the allowed address when first asked, loopback ever after.
  if (hostname === 'flip.example.com') {
    flips += 1;
    return [{ address: flips === 1 ? '127.0.0.2' : '127.0.0.1', family: 4 }];
  }
  if (hostname === 'rebind.example.com') return [{ address: '127.0.0.1', family: 4 }];
  return lookup(hostname, { all: true });
};

let panel: PanelStandIn;
/** Allows 127.0.0.2 only (DAEMON_PULL_ALLOW=127.0.0.2/32); everything else as a node on the internet sees it. */
let daemon: PullTestDaemon;
/** Short time-outs and a 64 KiB maximum. */
let strict: PullTestDaemon;
/** The allowed remote host. */
let remote: RemoteFileServer;
/** A host on loopback that no pull may reach: it must never see a request. */
let loopback: RemoteFileServer;

beforeAll(async () => {
  panel = await startPanelStandIn();
  panel.servers.set(SERVER, fileServerConfiguration(SERVER));
  panel.servers.set(SMALL, fileServerConfiguration(SMALL, { diskMb: 1 }));
  const allow = parseAllowedNetworks('127.0.0.2/32');
  daemon = await startPullTestDaemon(panel, { allow, resolve });
  strict = await startPullTestDaemon(panel, {
    allow,
    resolve,
    idleTimeoutMs: 1000,
    timeoutMs: 3000,
    maxBytes: 64 * 1024,
  });
  remote = await startRemoteFileServer('127.0.0.2');
  loopback = await startRemoteFileServer('127.0.0.1');
  loopback.route('/file.bin', serveBytes(Buffer.from('secret from loopback')));
});
afterAll(async () => {
  await Promise.all([daemon?.close(), strict?.close(), remote?.close(), loopback?.close()]);
  await panel?.close();
});

const named = (route: string) => `http://files.example.com:${remote.port}${route}`;
const partials = async (uuid = SERVER) =>
  (await readdir(daemon.volume(uuid), { recursive: true }).catch(() => [] as string[]))
    .map(String)
    .filter((name) => name.includes('.aerie-partial-') || name.includes('.aerie-upload-'));

describe('POST …/files/pull: destinations refused without DAEMON_PULL_ALLOW', () => {
  it.each([
    ['loopback by address', () => `http://127.0.0.1:${loopback.port}/file.bin`, 'a loopback address'],
    [
      'loopback by name (localhost)',
      () => `http://localhost:${loopback.port}/file.bin`,
      'a loopback address',
    ],
    ['IPv6 loopback', () => `http://[::1]:${loopback.port}/file.bin`, 'a loopback address'],
    [
      'IPv4-mapped IPv6 loopback',
      () => `http://[::ffff:127.0.0.1]:${loopback.port}/file.bin`,
      'a loopback address',
    ],
    ['loopback in decimal', () => `http://2130706433:${loopback.port}/file.bin`, 'a loopback address'],
    [
      'a public-looking name resolving to loopback',
      () => `http://rebind.example.com:${loopback.port}/file.bin`,
      'a loopback address',
    ],
    ['cloud metadata', () => 'http://169.254.169.254/latest/meta-data/', 'a link-local address'],
    ['IPv6 link-local', () => 'http://[fe80::1]/x', 'a link-local address'],
    ['RFC 1918 (10/8)', () => 'http://10.1.2.3/x', 'a private network address'],
    ['RFC 1918 (172.16/12)', () => 'http://172.20.0.1/x', 'a private network address'],
    ['RFC 1918 (192.168/16)', () => 'http://192.168.1.1/x', 'a private network address'],
    ['carrier-grade NAT', () => 'http://100.64.0.1/x', 'a shared (carrier-grade NAT) address'],
    ['unique local IPv6', () => 'http://[fd00::1]/x', 'a private network address'],
    ['IPv4-mapped private', () => 'http://[::ffff:10.0.0.1]/x', 'a private network address'],
    ['unspecified', () => `http://0.0.0.0:${loopback.port}/file.bin`, 'an unspecified address'],
    ['multicast', () => 'http://224.0.0.1/x', 'a multicast address'],
    ['broadcast', () => 'http://255.255.255.255/x', 'a broadcast address'],
  ])('%s: 400 before any connection', async (_name, url, kind) => {
    const response = await daemon.request('POST', pull, { url: url(), root: '/' });
    expect(response).toEqual({
      status: 400,
      body: { error: `The URL's host is ${kind}: this node does not download from it.` },
    });
    expect(loopback.requests).toEqual([]);
    expect(await readdir(daemon.volume(SERVER)).catch(() => [])).toEqual([]);
  });

  it('refuses every scheme but http and https', async () => {
    for (const url of ['file:///etc/passwd', `ftp://files.example.com:${remote.port}/x`, 'gopher://x/']) {
      const response = await daemon.request('POST', pull, { url, root: '/' });
      expect(response.status, url).toBe(400);
      expect((response.body as { error: string }).error).toMatch(/^Only http:\/\/ and https:\/\/ URLs/);
    }
    expect(await daemon.request('POST', pull, { url: 'not a url', root: '/' })).toEqual({
      status: 400,
      body: { error: 'The url must be a valid http:// or https:// URL.' },
    });
    expect(await daemon.request('POST', pull, { root: '/' })).toEqual({
      status: 422,
      body: { error: PULL_BODY_MESSAGE },
    });
  });

  it('checks every redirect the same way: a public host redirecting to loopback is refused', async () => {
    remote.route('/to-loopback', (_request, response) => {
      response.writeHead(302, { location: `http://127.0.0.1:${loopback.port}/file.bin` }).end();
    });
    remote.route('/to-rebind', (_request, response) => {
      response.writeHead(307, { location: `http://rebind.example.com:${loopback.port}/file.bin` }).end();
    });
    remote.route('/to-file', (_request, response) => {
      response.writeHead(301, { location: 'file:///etc/passwd' }).end();
    });
    for (const [route, error] of [
      ['/to-loopback', "The URL's host is a loopback address: this node does not download from it."],
      ['/to-rebind', "The URL's host is a loopback address: this node does not download from it."],
      ['/to-file', 'Only http:// and https:// URLs can be pulled, not file://.'],
    ]) {
      const response = await daemon.request('POST', pull, {
        url: named(route as string),
        root: '/',
        foreground: true,
      });
      expect(response, route).toEqual({ status: 400, body: { error } });
    }
    expect(loopback.requests).toEqual([]);
    expect(await partials()).toEqual([]);
  });

  it('connects to the address it checked: a name that answers loopback the second time is asked once', async () => {
    const bytes = Buffer.from('from the checked address');
    remote.route('/pinned.txt', serveBytes(bytes));
    loopback.route('/pinned.txt', serveBytes(Buffer.from('from loopback')));
    const response = await daemon.request('POST', pull, {
      url: `http://flip.example.com:${remote.port}/pinned.txt`,
      root: '/',
      foreground: true,
    });
    expect(response).toMatchObject({ status: 200, body: { name: 'pinned.txt', size: bytes.length } });
    expect(flips).toBe(1);
    expect(await readFile(path.join(daemon.volume(SERVER), 'pinned.txt'))).toEqual(bytes);
    expect(loopback.requests).toEqual([]);
  });

  it('follows up to 5 redirects, and refuses a sixth', async () => {
    const bytes = Buffer.from('at the end of the chain');
    remote.route('/final.txt', serveBytes(bytes));
    remote.route('/hop', (request, response) => {
      const left = Number(new URL(request.url ?? '', 'http://x').searchParams.get('left'));
      response.writeHead(302, { location: left === 0 ? '/final.txt' : `/hop?left=${left - 1}` }).end();
    });
    const five = await daemon.request('POST', pull, {
      url: named('/hop?left=4'),
      root: '/redirects',
      foreground: true,
    });
    expect(five).toMatchObject({ status: 200, body: { name: 'final.txt', size: bytes.length } });
    expect(await readFile(path.join(daemon.volume(SERVER), 'redirects', 'final.txt'))).toEqual(bytes);

    const six = await daemon.request('POST', pull, {
      url: named('/hop?left=5'),
      root: '/redirects',
      file_name: 'six.txt',
      foreground: true,
    });
    expect(six).toEqual({ status: 400, body: { error: 'The URL redirected more than 5 times.' } });
    await expect(stat(path.join(daemon.volume(SERVER), 'redirects', 'six.txt'))).rejects.toThrow();
  });
});

describe('POST …/files/pull: allowed downloads', () => {
  it('writes the exact bytes (foreground: 200 and the stat), through the allowed name', async () => {
    const bytes = randomBytes(300 * 1024);
    remote.route('/downloads/modpack.zip', serveBytes(bytes));
    const response = await daemon.request('POST', pull, {
      url: named('/downloads/modpack.zip'),
      root: '/plugins',
      foreground: true,
    });
    expect(response).toMatchObject({
      status: 200,
      body: { name: 'modpack.zip', size: bytes.length, file: true, mode_bits: '644' },
    });
    expect(await readFile(path.join(daemon.volume(SERVER), 'plugins', 'modpack.zip'))).toEqual(bytes);
    expect(await partials()).toEqual([]);
  });

  it('downloads in the background (202 with an identifier) and says so on the console', async () => {
    const bytes = randomBytes(64 * 1024);
    remote.route('/chunked.bin', serveBytes(bytes, { length: false }));
    const response = await daemon.request('POST', pull, { url: named('/chunked.bin'), directory: '/bg' });
    expect(response).toEqual({ status: 202, body: { identifier: expect.any(String) } });
    const target = path.join(daemon.volume(SERVER), 'bg', 'chunked.bin');
    await expect.poll(() => readFile(target).catch(() => undefined)).toEqual(bytes);
    await expect
      .poll(() => daemon.logs(SERVER).join('\n'))
      .toContain(`Downloaded chunked.bin (${bytes.length} bytes) from ${named('/chunked.bin')}.`);
  });

  it('replaces an existing file as Wings does, only once the new one is whole, keeping its mode', async () => {
    const target = path.join(daemon.volume(SERVER), 'server.properties');
    await writeFile(target, 'motd=old', { mode: 0o600 });
    remote.route('/server.properties', serveBytes(Buffer.from('motd=new')));
    const response = await daemon.request('POST', pull, {
      url: named('/server.properties'),
      root: '/',
      foreground: true,
    });
    expect(response.status).toBe(200);
    expect(await readFile(target, 'utf8')).toBe('motd=new');
    expect((await stat(target)).mode & 0o777).toBe(0o600);
  });

  it('a failed background pull shows on the console, with no credentials from the URL', async () => {
    const url = `http://player:hunter2@files.example.com:${remote.port}/missing.jar`;
    const response = await daemon.request('POST', pull, { url, root: '/' });
    expect(response.status).toBe(202);
    await expect
      .poll(() => daemon.logs(SERVER).join('\n'))
      .toContain(
        `Downloading http://files.example.com:${remote.port}/missing.jar failed: The remote server answered 404 Not Found.`,
      );
    expect(daemon.logs(SERVER).join('\n')).not.toContain('hunter2');
  });
});

describe('POST …/files/pull: file names stay in their directory', () => {
  it('refuses a given file_name that is not a plain name, before connecting', async () => {
    const before = remote.requests.length;
    for (const file_name of ['../x', 'a/b', 'a\\b', '..', '.', 'x\u0000y', 'x\ny']) {
      const response = await daemon.request('POST', pull, { url: named('/any'), root: '/', file_name });
      expect(response, JSON.stringify(file_name)).toEqual({
        status: 400,
        body: { error: 'The file name must be a plain name: no "/", "\\", control characters, "." or "..".' },
      });
    }
    expect(remote.requests.length).toBe(before);
  });

  it('takes only the last name of a Content-Disposition header (use_header)', async () => {
    remote.route(
      '/named',
      serveBytes(Buffer.from('from the header'), {
        headers: { 'content-disposition': 'attachment; filename="../../etc/x"' },
      }),
    );
    const response = await daemon.request('POST', pull, {
      url: named('/named'),
      root: '/names',
      use_header: true,
      foreground: true,
    });
    expect(response).toMatchObject({ status: 200, body: { name: 'x' } });
    expect(await readFile(path.join(daemon.volume(SERVER), 'names', 'x'), 'utf8')).toBe('from the header');
    expect(await readdir(path.join(daemon.volume(SERVER), 'names'))).toEqual(['x']);

    // Without use_header the URL names it; a given file_name wins over both.
    expect(
      await daemon.request('POST', pull, { url: named('/named'), root: '/names', foreground: true }),
    ).toMatchObject({ status: 200, body: { name: 'named' } });
    expect(
      await daemon.request('POST', pull, {
        url: named('/named'),
        root: '/names',
        file_name: 'chosen.txt',
        use_header: true,
        foreground: true,
      }),
    ).toMatchObject({ status: 200, body: { name: 'chosen.txt' } });
  });

  it('keeps the directory inside the server (404 outside), and needs a name when the URL has none', async () => {
    remote.route('/', serveBytes(Buffer.from('index')));
    remote.route('/escape.txt', serveBytes(Buffer.from('escape')));
    expect(
      await daemon.request('POST', pull, { url: named('/escape.txt'), root: '/../../', foreground: true }),
    ).toEqual({ status: 404, body: { error: 'The requested resources was not found on the system.' } });
    await expect(stat(path.join(daemon.volume(SERVER), '..', 'escape.txt'))).rejects.toThrow();
    expect(await daemon.request('POST', pull, { url: named('/'), root: '/', foreground: true })).toEqual({
      status: 400,
      body: { error: 'The URL does not name a file: give the file a name.' },
    });
  });
});

describe('POST …/files/pull: disk limit, size and time bounds', () => {
  const small = `/api/servers/${SMALL}/files/pull`;

  it('refuses a Content-Length past the disk limit before writing a byte', async () => {
    // Announced, never sent: only a check of the Content-Length itself can answer (else it waits for bytes).
    remote.route('/two-mib.bin', (_request, response) => {
      response.writeHead(200, { 'content-length': String(2 * 1024 * 1024) });
      response.write('x');
    });
    const response = await daemon.request('POST', small, {
      url: named('/two-mib.bin'),
      root: '/',
      foreground: true,
    });
    expect(response).toEqual({ status: 400, body: { error: QUOTA_MESSAGE } });
    expect(await readdir(daemon.volume(SMALL))).toEqual([]);
  });

  it('stops a download without Content-Length once it passes the disk limit, and removes its partial file', async () => {
    remote.route('/two-mib-chunked.bin', serveBytes(randomBytes(2 * 1024 * 1024), { length: false }));
    const response = await daemon.request('POST', small, {
      url: named('/two-mib-chunked.bin'),
      root: '/',
      foreground: true,
    });
    expect(response).toEqual({ status: 400, body: { error: QUOTA_MESSAGE } });
    expect(await readdir(daemon.volume(SMALL))).toEqual([]);
    // The space is free again: a small file still fits.
    remote.route('/small.txt', serveBytes(Buffer.from('fits')));
    expect(
      (await daemon.request('POST', small, { url: named('/small.txt'), root: '/', foreground: true })).status,
    ).toBe(200);
  });

  it('refuses past DAEMON_PULL_MAX_MB: a huge Content-Length at once, a chunked body as it arrives', async () => {
    remote.route('/huge', (_request, response) => {
      response.writeHead(200, { 'content-length': String(10 ** 12) });
      response.write('x');
    });
    remote.route('/chunked-100k', serveBytes(randomBytes(100 * 1024), { length: false }));
    const message = 'The file is larger than this node allows a download to be (64 KiB).';
    for (const route of ['/huge', '/chunked-100k']) {
      const response = await strict.request('POST', pull, { url: named(route), root: '/', foreground: true });
      expect(response, route).toEqual({ status: 400, body: { error: message } });
    }
    expect(await readdir(strict.volume(SERVER))).toEqual([]);
  });

  it('gives up on a remote that stops sending (idle) and on one that takes too long (total)', async () => {
    remote.route('/stalls', (_request, response) => {
      response.writeHead(200, { 'content-length': '1000' });
      response.write('x');
    });
    remote.route('/drips', (_request, response) => {
      response.writeHead(200, { 'content-length': '60000' });
      const timer = setInterval(() => response.write('x'), 100);
      response.on('close', () => clearInterval(timer));
    });
    expect(
      await strict.request('POST', pull, { url: named('/stalls'), root: '/', foreground: true }),
    ).toEqual({ status: 400, body: { error: 'The download stopped: nothing arrived for 1 seconds.' } });
    expect(await strict.request('POST', pull, { url: named('/drips'), root: '/', foreground: true })).toEqual(
      { status: 400, body: { error: 'The download took longer than 3 seconds and was stopped.' } },
    );
    expect(await readdir(strict.volume(SERVER))).toEqual([]);
  });
});

describe('POST …/files/pull: three at once per server', () => {
  it('accepts three fired together, refuses the fourth with Wings’ message, lists and cancels them', async () => {
    const held: (() => void)[] = [];
    remote.route('/held', (_request, response) => {
      response.writeHead(200, { 'content-length': '2' });
      // One byte now, the last one when the test releases it.
      response.write('h');
      held.push(() => response.end('!'));
    });
    await mkdir(path.join(daemon.volume(SERVER), 'held'), { recursive: true });
    const answers = await Promise.all(
      [1, 2, 3, 4].map((n) =>
        daemon.request('POST', pull, { url: named('/held'), root: '/held', file_name: `held-${n}` }),
      ),
    );
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses).toEqual([202, 202, 202, 400]);
    expect(answers.find((answer) => answer.status === 400)?.body).toEqual({ error: TOO_MANY_PULLS_MESSAGE });

    await expect.poll(() => held.length).toBe(3);
    const listed = await daemon.request('GET', pull);
    expect(listed).toEqual({
      status: 200,
      body: { downloads: expect.arrayContaining([{ identifier: expect.any(String), progress: 0.5 }]) },
    });
    expect((listed.body as { downloads: unknown[] }).downloads).toHaveLength(3);

    // One cancelled: its partial file goes; the other two finish.
    const [first] = answers.filter((answer) => answer.status === 202);
    const cancelled = (first?.body as { identifier?: string } | undefined)?.identifier;
    expect((await daemon.request('DELETE', `${pull}/${cancelled}`)).status).toBe(204);
    await expect
      .poll(
        async () => ((await daemon.request('GET', pull)).body as { downloads: unknown[] }).downloads.length,
      )
      .toBe(2);
    for (const release of held) release();
    await expect
      .poll(
        async () => ((await daemon.request('GET', pull)).body as { downloads: unknown[] }).downloads.length,
      )
      .toBe(0);
    expect((await readdir(path.join(daemon.volume(SERVER), 'held'))).sort()).toHaveLength(2);
    expect(await partials()).toEqual([]);
    expect(daemon.logs(SERVER).join('\n')).toContain('failed: The download was cancelled.');
  });
});

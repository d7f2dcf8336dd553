import { randomBytes, randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { JwtDenylist } from '@aerie/daemon/auth/jwt-denylist';
import { signTestToken } from '@aerie/daemon/auth/testing/sign-token';
import { countDirectoryBytes } from '@aerie/daemon/disk/disk-usage';
import { FilesystemError } from '@aerie/daemon/fs/filesystem-error';
import { buildTar } from '@aerie/daemon/fs/fs-test-support';
import { NODE_TOKEN, startTestDaemon, type TestDaemon } from '@aerie/daemon/testing/daemon-harness';
import { fileServerConfiguration, rawRequest } from '@aerie/daemon/testing/file-api-fixtures';
import { type PanelStandIn, startPanelStandIn } from '@aerie/daemon/testing/panel-stand-in';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedFileRoutes } from './signed-file-routes';

/**
 * The disk quota under requests fired at once: a check-then-write let twelve parallel 8 MiB writes into a 20 MB
 * server. Every scenario here races requests against one 20 MiB server and looks at what is on its disk after.
 */
const LIMIT_MB = 20;
const LIMIT_BYTES = LIMIT_MB * 1024 * 1024;
const MiB = 1024 * 1024;
const servers = {
  write: randomUUID(),
  copy: randomUUID(),
  decompress: randomUUID(),
  upload: randomUUID(),
  oneUpload: randomUUID(),
};
let panel: PanelStandIn;
let daemon: TestDaemon;
let dataDirectory: string;
const rootOf = (uuid: string) => path.join(dataDirectory, 'volumes', uuid);
const filesOf = (uuid: string) => `/api/servers/${uuid}/files`;
const QUOTA_ERROR = { error: new FilesystemError('EQUOTA').message };

beforeAll(async () => {
  panel = await startPanelStandIn();
  for (const uuid of Object.values(servers)) {
    panel.servers.set(uuid, fileServerConfiguration(uuid, { diskMb: LIMIT_MB }));
  }
  dataDirectory = await mkdtemp(path.join(tmpdir(), 'aerie-quota-race-'));
  daemon = await startTestDaemon({
    panel,
    dataDirectory,
    plugins: signedFileRoutes({
      dataDirectory,
      uploadLimitMb: 10,
      denylist: new JwtDenylist({ bootTime: new Date(Date.now() - 60_000) }),
    }),
  });
});
afterAll(async () => {
  await daemon.close();
  await panel.close();
  await rm(dataDirectory, { recursive: true, force: true });
});

/** A browser's upload through a signed URL the panel issued for `uuid`. */
async function signedUpload(uuid: string, files: [name: string, content: Buffer][]) {
  const claims = { server_uuid: uuid, unique_id: randomUUID().replace(/-/g, ''), purpose: 'file_upload' };
  const jwt = await signTestToken(claims, { key: NODE_TOKEN });
  const body = new FormData();
  for (const [name, content] of files) body.append('files', new Blob([content]), name);
  const route = `/upload/file?token=${encodeURIComponent(jwt)}&directory=/`;
  return rawRequest(daemon, 'POST', route, { body, token: null });
}

/** Fires every request at once and counts the answers by status. */
async function race(requests: (() => Promise<{ status: number; json?: unknown; body?: unknown }>)[]) {
  const answers = await Promise.all(requests.map((request) => request()));
  const ok = answers.filter((answer) => answer.status < 300);
  const refused = answers.filter((answer) => answer.status >= 300);
  for (const answer of refused) {
    expect([answer.status, answer.json ?? answer.body]).toEqual([400, QUOTA_ERROR]);
  }
  return { ok: ok.length, refused: refused.length };
}

describe('the disk quota under parallel requests', () => {
  it('twelve parallel 8 MiB writes into 20 MiB: two land, the rest are refused, the disk stays under', async () => {
    const body = randomBytes(8 * MiB);
    const { ok } = await race(
      Array.from(
        { length: 12 },
        (_, index) => () =>
          rawRequest(daemon, 'POST', `${filesOf(servers.write)}/write?file=part-${index}.bin`, { body }),
      ),
    );
    expect(ok).toBe(2);
    expect(await countDirectoryBytes(rootOf(servers.write))).toBeLessThanOrEqual(LIMIT_BYTES);
  });

  it('ten parallel copies of a 6 MiB file: only what fits is copied', async () => {
    const write = await rawRequest(daemon, 'POST', `${filesOf(servers.copy)}/write?file=world.dat`, {
      body: randomBytes(6 * MiB),
    });
    expect(write.status).toBe(204);
    const { ok } = await race(
      Array.from(
        { length: 10 },
        () => () =>
          daemon.request('POST', `${filesOf(servers.copy)}/copy`, { body: { location: '/world.dat' } }),
      ),
    );
    expect(ok).toBe(2);
    expect(await countDirectoryBytes(rootOf(servers.copy))).toBeLessThanOrEqual(LIMIT_BYTES);
  });

  it('ten parallel decompressions of a 6 MiB archive: only what fits is extracted', async () => {
    const archive = await buildTar([{ name: 'map.bin', content: randomBytes(6 * MiB) }]);
    const upload = await rawRequest(daemon, 'POST', `${filesOf(servers.decompress)}/write?file=map.tar`, {
      body: archive,
    });
    expect(upload.status).toBe(204);
    for (let index = 0; index < 10; index += 1) {
      await daemon.request('POST', `${filesOf(servers.decompress)}/create-directory`, {
        body: { name: `d${index}`, path: '/' },
      });
    }
    const { ok } = await race(
      Array.from(
        { length: 10 },
        (_, index) => () =>
          daemon.request('POST', `${filesOf(servers.decompress)}/decompress`, {
            body: { root: `/d${index}`, file: '../map.tar' },
          }),
      ),
    );
    expect(ok).toBe(2);
    expect(await countDirectoryBytes(rootOf(servers.decompress))).toBeLessThanOrEqual(LIMIT_BYTES);
  });

  it('six parallel signed uploads of 8 MiB: two land, and staging never holds more than the server may', async () => {
    const file = randomBytes(8 * MiB);
    const { ok } = await race(
      Array.from({ length: 6 }, () => () => signedUpload(servers.upload, [[`${randomUUID()}.bin`, file]])),
    );
    // Staging shares the room as bytes arrive, so which uploads win depends on timing; never more than fit.
    expect(ok).toBeGreaterThanOrEqual(1);
    expect(ok).toBeLessThanOrEqual(2);
    expect(await countDirectoryBytes(rootOf(servers.upload))).toBeLessThanOrEqual(LIMIT_BYTES);
  });

  it('one upload of six 8 MiB parts into 20 MiB is refused while staging, with nothing written or left', async () => {
    const parts = Array.from({ length: 6 }, (_, index): [string, Buffer] => [
      `p${index}.bin`,
      randomBytes(8 * MiB),
    ]);
    const answer = await signedUpload(servers.oneUpload, parts);
    expect(answer.status).toBe(400);
    expect(answer.json).toEqual(QUOTA_ERROR);
    expect(await readdir(rootOf(servers.oneUpload))).toEqual([]);
    const staging = path.join(dataDirectory, 'tmp', 'uploads');
    await mkdir(staging, { recursive: true });
    expect(await readdir(staging)).toEqual([]);
  });

  it('frees what a refused upload held: a write that fits afterwards lands', async () => {
    await writeFile(path.join(rootOf(servers.oneUpload), '.keep'), '');
    const write = await rawRequest(daemon, 'POST', `${filesOf(servers.oneUpload)}/write?file=fits.bin`, {
      body: randomBytes(19 * MiB),
    });
    expect(write.status).toBe(204);
  });
});

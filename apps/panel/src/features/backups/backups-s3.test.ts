import { randomBytes } from 'node:crypto';
import { type S3TestServer, s3TestServerMissing, startS3TestServer } from '@aerie/daemon/testing/s3-server';
import { readBool } from '@aerie/panel/db/dialect';
import type { NodeRow } from '@aerie/panel/features/nodes/nodes.service';
import { applicationRequest, createAdminWithKey } from '@aerie/panel/test/application-api';
import { createTestBackup } from '@aerie/panel/test/backup-factories';
import { buildTestApp, type TestApp } from '@aerie/panel/test/build-test-app';
import { createTestServer } from '@aerie/panel/test/server-factories';
import { serverScenarioWithDaemon, setServerState } from '@aerie/panel/test/server-scenario';
import {
  HeadObjectCommand,
  ListMultipartUploadsCommand,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

/**
 * Backups on S3 against a real S3 server (moto in its own process): the node asks for presigned part URLs, PUTs
 * the parts, reports their ETags and the panel completes the upload; the presigned download (and the restore's
 * URL) then gives back exactly those bytes; a failed backup's upload is aborted; deleting removes the object.
 */

const PART = 5 * 1024 * 1024;
let s3: S3TestServer;
let bucket: string;
let client: S3Client;
let t: TestApp;
let s: Awaited<ReturnType<typeof serverScenarioWithDaemon>>;

const base = () => `/api/client/servers/${s.server.uuid_short}/backups`;
const bearer = (node: NodeRow) => `Bearer ${node.daemon_token_id}.${t.ctx.secretBox.open(node.daemon_token)}`;
const remote = (method: 'GET' | 'POST', url: string, body?: unknown) =>
  t.app.inject({
    method,
    url: `/api/remote${url}`,
    headers: {
      authorization: bearer(s.node),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
  });
const rowOf = (uuid: string) =>
  t.db.selectFrom('backups').selectAll().where('uuid', '=', uuid).executeTakeFirstOrThrow();
const openUploads = async () =>
  (await client.send(new ListMultipartUploadsCommand({ Bucket: bucket }))).Uploads ?? [];

/** What the node does: asks for the part URLs, PUTs each slice as Wings does, collects the ETags. */
async function upload(uuid: string, archive: Buffer, partsToSend?: number) {
  const asked = await remote('GET', `/backups/${uuid}?size=${archive.length}`);
  expect(asked.statusCode, asked.body).toBe(200);
  const { parts, part_size } = asked.json() as { parts: string[]; part_size: number };
  const etags: { etag: string; part_number: number }[] = [];
  for (const [index, url] of parts.slice(0, partsToSend ?? parts.length).entries()) {
    const slice = archive.subarray(index * part_size, (index + 1) * part_size);
    const put = await fetch(url, {
      method: 'PUT',
      headers: { 'content-type': 'application/x-gzip', 'content-length': String(slice.length) },
      body: slice,
    });
    expect(put.status, await put.clone().text()).toBe(200);
    etags.push({ etag: put.headers.get('etag') as string, part_number: index + 1 });
  }
  return { parts, part_size, etags };
}

async function startBackup(): Promise<string> {
  const response = await s.owner.browser.post(base(), { name: 'On S3' });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().attributes.uuid;
}

beforeAll(async () => {
  if (s3TestServerMissing) return;
  s3 = await startS3TestServer();
  bucket = await s3.createBucket();
  client = new S3Client({
    region: s3.region,
    endpoint: s3.endpoint,
    forcePathStyle: true,
    credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
  });
  t = await buildTestApp({
    env: {
      APP_BACKUP_DRIVER: 's3',
      AWS_DEFAULT_REGION: s3.region,
      AWS_ACCESS_KEY_ID: s3.accessKeyId,
      AWS_SECRET_ACCESS_KEY: s3.secretAccessKey,
      AWS_BACKUPS_BUCKET: bucket,
      AWS_ENDPOINT: s3.endpoint,
      AWS_USE_PATH_STYLE_ENDPOINT: 'true',
      BACKUP_MAX_PART_SIZE: String(PART),
      BACKUP_PRESIGNED_URL_LIFESPAN: '30',
      BACKUP_THROTTLE_PERIOD: '0',
    },
  });
  s = await serverScenarioWithDaemon(t, []);
  await t.db.updateTable('servers').set({ backup_limit: 20 }).where('id', '=', s.server.id).execute();
}, 60_000);
afterAll(async () => {
  await t?.close();
  await s?.daemon.close();
  client?.destroy();
  await s3?.stop();
});
beforeEach(async () => {
  if (s3TestServerMissing) return;
  s.daemon.calls.length = 0;
  await setServerState(t, s.server, s.node, {});
});

describe.skipIf(s3TestServerMissing)('a backup on S3', () => {
  it('is uploaded in presigned parts, completed with their ETags, and downloads byte for byte', async () => {
    const uuid = await startBackup();
    expect(s.daemon.calls.map((call) => call.body)).toEqual([{ adapter: 's3', uuid, ignore: '' }]);
    const archive = randomBytes(PART + 1234);
    const { parts, part_size, etags } = await upload(uuid, archive);
    expect(parts).toHaveLength(2);
    expect(part_size).toBe(PART);
    const first = new URL(parts[0] as string);
    expect(first.pathname).toBe(`/${bucket}/${s.server.uuid}/${uuid}.tar.gz`);
    expect(first.searchParams.get('partNumber')).toBe('1');
    expect(first.searchParams.get('X-Amz-Expires')).toBe('1800');
    expect((await rowOf(uuid)).upload_id).toBe(first.searchParams.get('uploadId'));

    const reported = await remote('POST', `/backups/${uuid}`, {
      successful: true,
      checksum: 'a94a8fe5ccb19ba61c4c0873d391e987982fbbd3',
      checksum_type: 'sha1',
      size: archive.length,
      parts: [...etags].reverse(),
    });
    expect(reported.statusCode, reported.body).toBe(204);
    const row = await rowOf(uuid);
    expect(readBool(row.is_successful)).toBe(true);
    expect(row.upload_id).toBeNull();
    expect(await openUploads()).toEqual([]);

    const download = await s.owner.get(`${base()}/${uuid}/download`);
    expect(download.statusCode).toBe(200);
    const url = new URL(download.json().attributes.url);
    expect(url.searchParams.get('X-Amz-Expires')).toBe('300');
    const fetched = await fetch(url);
    expect(fetched.status).toBe(200);
    expect(fetched.headers.get('content-type')).toBe('application/x-gzip');
    expect(Buffer.from(await fetched.arrayBuffer()).equals(archive)).toBe(true);

    // A restore hands the node a presigned GET of the same archive.
    const restore = await s.owner.browser.post(`${base()}/${uuid}/restore`, { truncate: false });
    expect(restore.statusCode).toBe(204);
    const call = s.daemon.calls.find((entry) => entry.path.endsWith(`/backup/${uuid}/restore`));
    const body = call?.body as { adapter: string; truncate_directory: boolean; download_url: string };
    expect(body).toMatchObject({ adapter: 's3', truncate_directory: false });
    const restored = await fetch(body.download_url);
    expect(Buffer.from(await restored.arrayBuffer()).equals(archive)).toBe(true);
    await setServerState(t, s.server, s.node, {});

    // Deleting it removes the object (the node is not asked: the panel deletes S3 objects itself).
    s.daemon.calls.length = 0;
    expect((await s.owner.browser.send('DELETE', `${base()}/${uuid}`)).statusCode).toBe(204);
    expect(s.daemon.calls).toEqual([]);
    expect((await fetch(url)).status).toBe(404);
  });

  it('has its upload aborted when the node reports a failure', async () => {
    const uuid = await startBackup();
    await upload(uuid, randomBytes(PART + 10), 1);
    expect((await openUploads()).map((entry) => entry.Key)).toContain(`${s.server.uuid}/${uuid}.tar.gz`);
    const reported = await remote('POST', `/backups/${uuid}`, { successful: false, parts: null });
    expect(reported.statusCode).toBe(204);
    expect(readBool((await rowOf(uuid)).is_successful)).toBe(false);
    expect(await openUploads()).toEqual([]);
  });

  it('starts over when the node asks for part URLs again, dropping the first upload', async () => {
    const uuid = await startBackup();
    await upload(uuid, randomBytes(100), 0);
    await upload(uuid, randomBytes(100), 0);
    const open = (await openUploads()).filter((entry) => entry.Key === `${s.server.uuid}/${uuid}.tar.gz`);
    expect(open.map((entry) => entry.UploadId)).toEqual([(await rowOf(uuid)).upload_id]);
    await remote('POST', `/backups/${uuid}`, { successful: false });
  });

  it('refuses an archive larger than 10,000 parts', async () => {
    const uuid = await startBackup();
    const response = await remote('GET', `/backups/${uuid}?size=${PART * 10_000 + 1}`);
    expect(response.statusCode).toBe(400);
    expect(await openUploads()).toEqual([]);
    await remote('POST', `/backups/${uuid}`, { successful: false });
  });

  it('has its open upload aborted by the pruner when the node never reports', async () => {
    const uuid = await startBackup();
    await upload(uuid, randomBytes(100), 1);
    t.advanceClock(361 * 60_000);
    expect(await t.ctx.backupPruner.tick()).toBeGreaterThanOrEqual(1);
    expect(readBool((await rowOf(uuid)).is_successful)).toBe(false);
    expect(await openUploads()).toEqual([]);
  });

  it('goes with its server', async () => {
    const doomed = await createTestServer(t.ctx, { owner: s.owner.user, node: s.node, eggId: s.egg.id });
    const { uuid } = await createTestBackup(t.ctx, doomed, { disk: 's3' });
    const key = `${doomed.uuid}/${uuid}.tar.gz`;
    await client.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: 'archive' }));
    const exists = () =>
      client.send(new HeadObjectCommand({ Bucket: bucket, Key: key })).then(
        () => true,
        () => false,
      );
    expect(await exists()).toBe(true);
    const { bearer: adminKey } = await createAdminWithKey(t.ctx);
    expect((await applicationRequest(t.app, adminKey, 'DELETE', `servers/${doomed.id}`)).statusCode).toBe(
      204,
    );
    expect(await exists()).toBe(false);
  });
});

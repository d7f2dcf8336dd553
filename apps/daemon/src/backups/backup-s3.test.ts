import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startTestDaemon, type TestDaemon } from '@aerie/daemon/testing/daemon-harness';
import { fileServerConfiguration } from '@aerie/daemon/testing/file-api-fixtures';
import { type PanelStandIn, startPanelStandIn } from '@aerie/daemon/testing/panel-stand-in';
import { type S3TestServer, s3TestServerMissing, startS3TestServer } from '@aerie/daemon/testing/s3-server';
import {
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  GetObjectCommand,
  S3Client,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha1 } from './testing-archive';

const UUID = '4d3c2b1a-0f9e-4d8c-b7a6-5f4e3d2c1b0a';
const PART_SIZE = 5 * 1024 * 1024;
let s3: S3TestServer;
let client: S3Client;
let bucket: string;
let panel: PanelStandIn;
let daemon: TestDaemon;
let dataDirectory: string;
const uploads = new Map<string, string>();
const onDisk = (name: string) => path.join(dataDirectory, 'volumes', UUID, name);

beforeAll(async () => {
  if (s3TestServerMissing) return;
  s3 = await startS3TestServer();
  bucket = await s3.createBucket();
  client = new S3Client({
    endpoint: s3.endpoint,
    region: s3.region,
    forcePathStyle: true,
    credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
  });
  panel = await startPanelStandIn();
  panel.servers.set(UUID, fileServerConfiguration(UUID));
  // Acting as the panel: a multipart upload per backup, one presigned UploadPart URL per part.
  panel.backupParts = async (backup, size) => {
    const created = await client.send(
      new CreateMultipartUploadCommand({
        Bucket: bucket,
        Key: `${backup}.tar.gz`,
        ContentType: 'application/x-gzip',
      }),
    );
    const uploadId = created.UploadId ?? '';
    uploads.set(backup, uploadId);
    const count = Math.max(1, Math.ceil(size / PART_SIZE));
    const parts = await Promise.all(
      Array.from({ length: count }, (_, index) =>
        getSignedUrl(
          client,
          new UploadPartCommand({
            Bucket: bucket,
            Key: `${backup}.tar.gz`,
            UploadId: uploadId,
            PartNumber: index + 1,
          }),
          { expiresIn: 3600 },
        ),
      ),
    );
    return { parts, part_size: PART_SIZE };
  };
  dataDirectory = await mkdtemp(path.join(tmpdir(), 'aerie-backups-s3-'));
  daemon = await startTestDaemon({
    panel,
    dataDirectory,
    backupOptions: { upload: { attempts: 3, firstRetryDelayMs: 10, maxRetryDelayMs: 50 } },
  });
}, 60_000);
afterAll(async () => {
  await daemon?.close();
  await panel?.close();
  client?.destroy();
  await s3?.stop();
});

const backupDirectoryFiles = async () =>
  readdir(path.join(dataDirectory, 'backups')).catch(() => [] as string[]);

describe.skipIf(s3TestServerMissing)('s3 adapter against a real S3 server', () => {
  it('uploads the archive in presigned parts, the panel completes it, and a restore GETs it back', async () => {
    const world = randomBytes(12 * 1024 * 1024);
    await writeFile(onDisk('world.bin'), world);
    await writeFile(onDisk('server.properties'), 'motd=from s3\n');
    const backup = randomUUID();
    const accepted = await daemon.request('POST', `/api/servers/${UUID}/backup`, {
      body: { adapter: 's3', uuid: backup, ignore: '' },
    });
    expect(accepted.status).toBe(202);
    const report = await panel.waitForBackupReport(backup, 60_000);
    expect(report.successful).toBe(true);
    expect(report.checksum_type).toBe('sha1');
    expect(report.size).toBeGreaterThan(2 * PART_SIZE);
    expect(report.parts?.map((part) => part.part_number)).toEqual([1, 2, 3]);
    expect(
      panel.requests.some((r) => r.line === `GET /api/remote/backups/${backup}?size=${report.size}`),
    ).toBe(true);
    // Nothing stays on the node: the temporary archive is gone.
    expect(await backupDirectoryFiles()).toEqual([]);

    await client.send(
      new CompleteMultipartUploadCommand({
        Bucket: bucket,
        Key: `${backup}.tar.gz`,
        UploadId: uploads.get(backup),
        MultipartUpload: {
          Parts: (report.parts ?? []).map((p) => ({ ETag: p.etag, PartNumber: p.part_number })),
        },
      }),
    );
    const object = await client.send(new GetObjectCommand({ Bucket: bucket, Key: `${backup}.tar.gz` }));
    const stored = Buffer.from(
      await (object.Body?.transformToByteArray() ?? Promise.resolve(new Uint8Array())),
    );
    expect(stored.length).toBe(report.size);
    expect(sha1(stored)).toBe(report.checksum);

    await writeFile(onDisk('server.properties'), 'motd=changed\n');
    await rm(onDisk('world.bin'));
    const downloadUrl = await getSignedUrl(
      client,
      new GetObjectCommand({ Bucket: bucket, Key: `${backup}.tar.gz` }),
      { expiresIn: 300 },
    );
    const restore = await daemon.request('POST', `/api/servers/${UUID}/backup/${backup}/restore`, {
      body: { adapter: 's3', truncate_directory: true, download_url: downloadUrl },
    });
    expect(restore.status).toBe(202);
    expect(await panel.waitForRestoreReport(backup, 60_000)).toEqual({ successful: true });
    expect(await readFile(onDisk('server.properties'), 'utf8')).toBe('motd=from s3\n');
    expect((await readFile(onDisk('world.bin'))).equals(world)).toBe(true);
    expect(await backupDirectoryFiles()).toEqual([]);
    await rm(onDisk('world.bin'));
  }, 120_000);

  it('reports a refused part upload as failed and keeps nothing', async () => {
    await writeFile(onDisk('small.txt'), 'small');
    const planned = panel.backupParts;
    // A part URL for an upload the store does not know (a 4xx: not retried).
    panel.backupParts = async (backup, size) => {
      const plan = await planned(backup, size);
      if ('status' in plan) return plan;
      return { ...plan, parts: plan.parts.map((url) => url.replace(/uploadId=[^&]+/, 'uploadId=unknown')) };
    };
    try {
      const backup = randomUUID();
      await daemon.request('POST', `/api/servers/${UUID}/backup`, {
        body: { adapter: 's3', uuid: backup, ignore: '' },
      });
      expect(await panel.waitForBackupReport(backup, 30_000)).toEqual({
        successful: false,
        checksum: '',
        checksum_type: 'sha1',
        size: 0,
        parts: null,
      });
      expect(await backupDirectoryFiles()).toEqual([]);
    } finally {
      panel.backupParts = planned;
    }
  }, 60_000);
});

import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readdir, stat } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { JwtDenylist } from '@aerie/daemon/auth/jwt-denylist';
import { signTestToken } from '@aerie/daemon/auth/testing/sign-token';
import { FilesystemError } from '@aerie/daemon/fs/filesystem-error';
import { NODE_TOKEN, startTestDaemon, type TestDaemon } from '@aerie/daemon/testing/daemon-harness';
import { fileServerConfiguration, rawRequest } from '@aerie/daemon/testing/file-api-fixtures';
import { type PanelStandIn, startPanelStandIn } from '@aerie/daemon/testing/panel-stand-in';
import { mountSmallDisk, type SmallDisk, smallDiskUnavailable } from '@aerie/daemon/testing/small-disk';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { signedFileRoutes } from './signed-file-routes';

const UUID = '3c9d1e2f-4a5b-4c6d-8e7f-9a0b1c2d3e4f';
const base = `/api/servers/${UUID}/files`;
const DISK_FULL = { error: new FilesystemError('ENOSPACE').message };
const MIB = 1024 * 1024;
/** How long the next request may take: "at once", with room for a loaded machine. */
const ANSWER_WITHIN_MS = 2000;

const skipReason = smallDiskUnavailable();

describe.skipIf(skipReason !== undefined)(
  `a full disk under the daemon's data directory${skipReason ? ` (skipped: ${skipReason})` : ''}`,
  { timeout: 10_000 },
  () => {
    let disk: SmallDisk;
    let panel: PanelStandIn;
    let daemon: TestDaemon;
    let dataDirectory: string;
    let root: string;
    // One kept-alive connection, as the panel's fetch reuses its connections to a node: a request that leaves the
    // connection stuck shows up as the next request going unanswered.
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

    beforeAll(async () => {
      disk = mountSmallDisk(8);
      dataDirectory = path.join(disk.path, 'daemon');
      await mkdir(dataDirectory);
      panel = await startPanelStandIn();
      panel.servers.set(UUID, fileServerConfiguration(UUID));
      daemon = await startTestDaemon({
        panel,
        dataDirectory,
        plugins: signedFileRoutes({
          dataDirectory,
          uploadLimitMb: 1,
          denylist: new JwtDenylist({ bootTime: new Date(Date.now() - 60_000) }),
        }),
      });
      root = path.join(dataDirectory, 'volumes', UUID);
      // The boot's states.json write is out of the way before any test fills the disk.
      await vi.waitFor(() => expect(existsSync(path.join(dataDirectory, 'states.json'))).toBe(true));
    });
    afterAll(async () => {
      agent.destroy();
      disk?.free();
      await daemon?.close();
      await panel?.close();
      disk?.unmount();
    });

    /** A node-token call on the shared connection; rejects when no answer comes within ANSWER_WITHIN_MS. */
    function call(method: string, route: string, body?: Buffer): Promise<{ status: number; json: unknown }> {
      return new Promise((resolve, reject) => {
        const request = http.request(`${daemon.url}${route}`, {
          method,
          agent,
          headers: {
            authorization: `Bearer ${NODE_TOKEN}`,
            ...(body ? { 'content-type': 'application/octet-stream', 'content-length': body.length } : {}),
          },
        });
        const timer = setTimeout(() => {
          request.destroy();
          reject(new Error(`${method} ${route}: no answer within ${ANSWER_WITHIN_MS} ms`));
        }, ANSWER_WITHIN_MS);
        request.on('error', reject);
        request.on('response', (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () => {
            clearTimeout(timer);
            const text = Buffer.concat(chunks).toString('utf8');
            resolve({ status: response.statusCode ?? 0, json: text === '' ? undefined : JSON.parse(text) });
          });
        });
        request.end(body);
      });
    }

    async function whileFull<T>(check: () => Promise<T>, leaveBytes = 0): Promise<T> {
      disk.fill({ leaveBytes });
      try {
        return await check();
      } finally {
        disk.free();
      }
    }

    const names = async (directory: string) => (existsSync(directory) ? readdir(directory) : []);

    it('answers a write that meets the full disk with 507 and its text, keeps nothing of it, and answers the next request at once', async () => {
      await whileFull(async () => {
        const refused = await call('POST', `${base}/write?file=big.bin`, Buffer.alloc(MIB, 1));
        expect(refused).toEqual({ status: 507, json: DISK_FULL });
        // The next call goes over the same connection: before the fix it waited behind the unread body.
        const next = await call('GET', `${base}/list-directory`);
        expect(next.status).toBe(200);
        expect(next.json).toEqual([]);
        // Neither the file nor its temporary (.aerie-upload-…) is left.
        expect(await names(root)).toEqual([]);
      });
    });

    it('writes again once space is freed, without a restart', async () => {
      expect((await call('POST', `${base}/write?file=after.bin`, Buffer.alloc(MIB, 2))).status).toBe(204);
      expect((await stat(path.join(root, 'after.bin'))).size).toBe(MIB);
    });

    it('refuses a signed upload that meets the full disk with 507, leaving nothing staged or written', async () => {
      const upload = async () => {
        const jwt = await signTestToken(
          { server_uuid: UUID, unique_id: randomUUID().replace(/-/g, ''), purpose: 'file_upload' },
          { key: NODE_TOKEN },
        );
        const form = new FormData();
        form.append('files', new Blob([Buffer.alloc(MIB / 2, 3)]), 'upload.bin');
        const route = `/upload/file?token=${encodeURIComponent(jwt)}&directory=%2F`;
        return rawRequest(daemon, 'POST', route, { body: form, token: null });
      };
      // Room for the one-time token mark, not for the file being staged.
      const refused = await whileFull(upload, 128 * 1024);
      expect(refused.status).toBe(507);
      expect(refused.json).toEqual(DISK_FULL);
      expect(await names(path.join(dataDirectory, 'tmp', 'uploads'))).toEqual([]);
      expect(await names(root)).not.toContain('upload.bin');
      expect((await upload()).status).toBe(200);
      expect((await stat(path.join(root, 'upload.bin'))).size).toBe(MIB / 2);
    });

    it('answers a compress or a decompress that meets the full disk with 507, leaving no partial file', async () => {
      // 2 MiB of zeros: a tiny archive that expands past what is left.
      expect((await call('POST', `${base}/write?file=zeros.bin`, Buffer.alloc(2 * MIB))).status).toBe(204);
      const packed = await daemon.request('POST', `${base}/compress`, {
        body: { root: '/', files: ['zeros.bin'] },
      });
      expect(packed.status).toBe(200);
      const archive = (packed.body as { name: string }).name;
      await daemon.request('POST', `${base}/delete`, {
        body: { root: '/', files: ['zeros.bin', 'after.bin'] },
      });
      const before = await names(root);

      const compress = await whileFull(() =>
        daemon.request('POST', `${base}/compress`, { body: { root: '/', files: [archive] } }),
      );
      expect(compress).toMatchObject({ status: 507, body: DISK_FULL });
      expect(await names(root)).toEqual(before);

      const decompress = await whileFull(
        () => daemon.request('POST', `${base}/decompress`, { body: { root: '/', file: archive } }),
        256 * 1024,
      );
      expect(decompress).toMatchObject({ status: 507, body: DISK_FULL });
      // The entry cut short is gone too.
      expect(await names(root)).toEqual(before);
    });

    it('reports the disk in GET /api/system: nearly nothing free while full, the space back once freed', async () => {
      const disk = async () => {
        const response = await daemon.request('GET', '/api/system');
        expect(response.status).toBe(200);
        return response.body as { disk_total_bytes: number; disk_free_bytes: number };
      };
      const full = await whileFull(disk);
      expect(full.disk_total_bytes).toBe(8 * MIB);
      expect(full.disk_free_bytes).toBeLessThan(64 * 1024);
      const freed = await disk();
      expect(freed.disk_total_bytes).toBe(8 * MIB);
      expect(freed.disk_free_bytes).toBeGreaterThan(5 * MIB);
    });
  },
);

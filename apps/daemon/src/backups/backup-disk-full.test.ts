import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PanelClient } from '@aerie/daemon/panel-client/panel-client';
import { startTestDaemon, type TestDaemon } from '@aerie/daemon/testing/daemon-harness';
import { fileServerConfiguration } from '@aerie/daemon/testing/file-api-fixtures';
import {
  PANEL_TOKEN,
  PANEL_TOKEN_ID,
  type PanelStandIn,
  startPanelStandIn,
} from '@aerie/daemon/testing/panel-stand-in';
import { mountSmallDisk, type SmallDisk, smallDiskUnavailable } from '@aerie/daemon/testing/small-disk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BackupService } from './backup-service';

/**
 * The backup disk fills up halfway through a backup (issue 33: the daemon died of an uncaught ENOSPC, the backup
 * stayed "in progress" and its partial file kept the disk full). A real 4 MiB tmpfs holds the backups; the server
 * has 12 MiB that do not compress.
 */
const UUID = '3e4f5a6b-7c8d-4e9f-a0b1-c2d3e4f5a6b7';
const skipReason = smallDiskUnavailable();
let panel: PanelStandIn;
let daemon: TestDaemon;
let dataDirectory: string;
let disk: SmallDisk;
const logged: string[] = [];

describe.skipIf(skipReason !== undefined)(
  `a backup on a disk that fills up${skipReason ? ` (skipped: ${skipReason})` : ''}`,
  () => {
    beforeAll(async () => {
      disk = mountSmallDisk(4);
      panel = await startPanelStandIn();
      panel.servers.set(UUID, fileServerConfiguration(UUID));
      dataDirectory = await mkdtemp(path.join(tmpdir(), 'aerie-backup-full-'));
      const backups = new BackupService({
        directory: disk.path,
        panel: new PanelClient({
          url: panel.url,
          tokenId: PANEL_TOKEN_ID,
          token: PANEL_TOKEN,
          retryForMs: 2000,
          firstRetryDelayMs: 50,
        }),
        log: (line) => logged.push(line),
        restoreStopTimeoutMs: 10_000,
      });
      daemon = await startTestDaemon({ panel, dataDirectory, backups });
      for (let i = 0; i < 12; i++) {
        await writeFile(
          path.join(dataDirectory, 'volumes', UUID, `chunk-${i}.bin`),
          randomBytes(1024 * 1024),
        );
      }
    });
    afterAll(async () => {
      await daemon?.close();
      await panel?.close();
      disk?.unmount();
      await rm(dataDirectory, { recursive: true, force: true });
    });

    const backupNow = async () => {
      const backup = randomUUID();
      const started = await daemon.request('POST', `/api/servers/${UUID}/backup`, {
        body: { adapter: 'wings', ignore: '', uuid: backup },
      });
      expect(started.status).toBe(202);
      return { backup, report: await panel.waitForBackupReport(backup) };
    };

    it('fails the backup, leaves no partial file, and the daemon keeps serving', {
      timeout: 30_000,
    }, async () => {
      const { report } = await backupNow();
      expect(report.successful).toBe(false);
      expect(await readdir(disk.path)).toEqual([]);
      expect(logged.join('\n')).toContain("The node's disk is full: the backup could not be written.");
      // Still serving, and the space is back for a backup that fits.
      expect((await daemon.request('GET', `/api/servers/${UUID}`)).status).toBe(200);
      for (let i = 0; i < 11; i++) await rm(path.join(dataDirectory, 'volumes', UUID, `chunk-${i}.bin`));
      const { backup, report: second } = await backupNow();
      expect(second.successful).toBe(true);
      expect(await readdir(disk.path)).toEqual([`${backup}.tar.gz`]);
    });
  },
);

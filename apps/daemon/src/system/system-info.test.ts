import { statfs } from 'node:fs/promises';
import os from 'node:os';
import { startTestDaemon, type TestDaemon } from '@aerie/daemon/testing/daemon-harness';
import { type PanelStandIn, startPanelStandIn } from '@aerie/daemon/testing/panel-stand-in';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let panel: PanelStandIn;
let daemon: TestDaemon;
beforeAll(async () => {
  panel = await startPanelStandIn();
  daemon = await startTestDaemon({ panel });
});
afterAll(async () => {
  await daemon.close();
  await panel.close();
});

describe('GET /api/system', () => {
  it('answers the version, kernel, architecture, OS, CPU count and memory in Wings field names, and the disk', async () => {
    const response = await daemon.request('GET', '/api/system');
    expect(response.status).toBe(200);
    const body = response.body as Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual([
      'architecture',
      'cpu_count',
      'disk_free_bytes',
      'disk_total_bytes',
      'kernel_version',
      'memory_bytes',
      'os',
      'version',
    ]);
    // The data directory's file system, read live (how a full one reads: src/http/disk-full.test.ts).
    const disk = await statfs(daemon.dataDirectory);
    expect(body.disk_total_bytes).toBe(disk.blocks * disk.bsize);
    expect(body.disk_free_bytes).toBeGreaterThan(0);
    expect(body.disk_free_bytes).toBeLessThanOrEqual(disk.blocks * disk.bsize);
    expect(body.version).toBe('0.1.0');
    expect(body.kernel_version).toBe(os.release());
    expect(body.os).toBe('linux');
    expect(body.architecture).toBe(process.arch === 'x64' ? 'amd64' : process.arch);
    expect(body.cpu_count).toBeGreaterThanOrEqual(1);
    expect(body.memory_bytes).toBe(os.totalmem());
  });

  it('answers 404 for routes it does not have', async () => {
    const response = await daemon.request('GET', '/api/nothing-here');
    expect(response).toMatchObject({
      status: 404,
      body: { error: 'The requested resource does not exist on this instance.' },
    });
  });
});

import { once } from 'node:events';
import { createServer, type Socket } from 'node:net';
import {
  demoConfiguration,
  PANEL_TOKEN,
  PANEL_TOKEN_ID,
  type PanelStandIn,
  startPanelStandIn,
} from '@aerie/daemon/testing/panel-stand-in';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PanelClient } from './panel-client';

let panel: PanelStandIn;
beforeEach(async () => {
  panel = await startPanelStandIn();
});
afterEach(() => panel.close());

const client = (options: Partial<ConstructorParameters<typeof PanelClient>[0]> = {}) =>
  new PanelClient({
    url: panel.url,
    tokenId: PANEL_TOKEN_ID,
    token: PANEL_TOKEN,
    firstRetryDelayMs: 10,
    ...options,
  });

const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

describe('PanelClient', () => {
  it('lists every page of servers (50 per page) as the node, with the Pterodactyl accept header', async () => {
    for (let n = 1; n <= 120; n++) panel.servers.set(uuid(n), demoConfiguration(uuid(n)));
    const servers = await client().listServers();
    expect(servers.map((s) => s.uuid)).toEqual(Array.from({ length: 120 }, (_, i) => uuid(i + 1)));
    expect(servers[0]?.settings.invocation).toContain('demo-server.mjs');
    expect(panel.requests.map((r) => r.line).sort()).toEqual([
      'GET /api/remote/servers?page=1&per_page=50',
      'GET /api/remote/servers?page=2&per_page=50',
      'GET /api/remote/servers?page=3&per_page=50',
    ]);
    expect(panel.requests[0]?.authorization).toBe(`Bearer ${PANEL_TOKEN_ID}.${PANEL_TOKEN}`);
  });

  it('reads a configuration and install script, reports the install and the boot reset', async () => {
    panel.servers.set(uuid(1), demoConfiguration(uuid(1), { diskMb: 7 }));
    const api = client();
    expect((await api.getServer(uuid(1))).settings.build.disk_space).toBe(7);
    expect((await api.getInstallScript(uuid(1))).entrypoint).toBe('bash');
    await api.reportInstall(uuid(1), { successful: true, reinstall: false });
    await api.resetServers();
    expect(panel.installReports).toEqual([{ uuid: uuid(1), body: { successful: true, reinstall: false } }]);
    expect(panel.resets).toBe(1);
  });

  it('fails at once on a 4xx, with the panel detail', async () => {
    await expect(client().getServer(uuid(9))).rejects.toMatchObject({
      status: 404,
      message: `The panel answered GET /api/remote/servers/${uuid(9)} with HTTP 404: Server not found.`,
    });
    await expect(client({ token: 'wrong' }).getServer(uuid(9))).rejects.toMatchObject({ status: 403 });
    expect(panel.requests).toHaveLength(2);
  });

  it('retries a 5xx with backoff and succeeds, and gives up once the retry time is over', async () => {
    panel.servers.set(uuid(1), demoConfiguration(uuid(1)));
    panel.failNext(502, 2);
    expect((await client().getServer(uuid(1))).settings.uuid).toBe(uuid(1));
    expect(panel.requests).toHaveLength(3);
    panel.failNext(500, 1000);
    await expect(client({ retryForMs: 200 }).getServer(uuid(1))).rejects.toMatchObject({ status: 500 });
  });

  it('retries an unreachable panel, then says it could not reach it', async () => {
    await panel.close();
    const started = Date.now();
    await expect(client({ retryForMs: 300 }).resetServers()).rejects.toThrow(
      `Could not reach the panel at ${panel.url}/api/remote/servers/reset`,
    );
    expect(Date.now() - started).toBeGreaterThanOrEqual(70);
    panel = await startPanelStandIn();
  });

  it('retries once a first attempt that took longer than the retry time to fail (a reset on a loaded machine)', async () => {
    let connections = 0;
    const flaky = createServer((socket: Socket) => {
      connections++;
      if (connections === 1) {
        setTimeout(() => socket.resetAndDestroy(), 300);
        return;
      }
      socket.once('data', () => socket.end('HTTP/1.1 204 No Content\r\nConnection: close\r\n\r\n'));
    });
    flaky.listen(0, '127.0.0.1');
    await once(flaky, 'listening');
    const address = flaky.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    try {
      await client({ url: `http://127.0.0.1:${port}`, retryForMs: 100 }).resetServers();
      expect(connections).toBe(2);
      // With no retry time at all (SFTP logins), the first failure stands.
      connections = 0;
      await expect(client({ url: `http://127.0.0.1:${port}`, retryForMs: 0 }).resetServers()).rejects.toThrow(
        'Could not reach the panel',
      );
      expect(connections).toBe(1);
    } finally {
      flaky.close();
    }
  });
});

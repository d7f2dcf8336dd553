import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildDaemonApp } from '@aerie/daemon/http/app';
import { PanelClient } from '@aerie/daemon/panel-client/panel-client';
import { defaultPullSettings, type PullSettings } from '@aerie/daemon/pull/pull-settings';
import { RemotePulls } from '@aerie/daemon/pull/remote-pulls';
import { ProcessDriver } from '@aerie/daemon/runtime/process/process-driver';
import { ProcessSandbox } from '@aerie/daemon/runtime/process/sandbox/process-sandbox';
import { ServerManager } from '@aerie/daemon/server/server-manager';
import { NODE_TOKEN } from '@aerie/daemon/testing/daemon-harness';
import { PANEL_TOKEN, PANEL_TOKEN_ID, type PanelStandIn } from '@aerie/daemon/testing/panel-stand-in';

export interface PullTestDaemon {
  url: string;
  /** A server's directory on the host. */
  volume(uuid: string): string;
  /** A node-token request answered as JSON (undefined for an empty body). */
  request(method: string, route: string, body?: unknown): Promise<{ status: number; body: unknown }>;
  /** The server's console history (what `…/logs` answers). */
  logs(uuid: string): readonly string[];
  close(): Promise<void>;
}

/**
 * The real daemon app on 127.0.0.1:0 with the panel stand-in's servers and the given pull settings (the shared
 * harness mounts the defaults), in a fresh data directory.
 */
export async function startPullTestDaemon(
  panel: PanelStandIn,
  settings: Partial<PullSettings>,
): Promise<PullTestDaemon> {
  const dataDirectory = await mkdtemp(path.join(tmpdir(), 'aerie-pull-'));
  const manager = new ServerManager({
    dataDirectory,
    driver: new ProcessDriver({
      tmpDirectory: path.join(dataDirectory, 'tmp'),
      runDirectory: path.join(dataDirectory, 'run'),
      sandbox: ProcessSandbox.unsafe(),
    }),
    panel: new PanelClient({ url: panel.url, tokenId: PANEL_TOKEN_ID, token: PANEL_TOKEN }),
  });
  await manager.boot();
  const app = buildDaemonApp({
    config: { token: NODE_TOKEN, panelUrl: panel.url, allowedOrigins: [] },
    manager,
    pulls: new RemotePulls({ ...defaultPullSettings(), ...settings }),
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  return {
    url,
    volume: (uuid) => path.join(dataDirectory, 'volumes', uuid),
    async request(method, route, body) {
      const response = await fetch(`${url}${route}`, {
        method,
        headers: {
          authorization: `Bearer ${NODE_TOKEN}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await response.text();
      return { status: response.status, body: text === '' ? undefined : JSON.parse(text) };
    },
    logs: (uuid) => manager.get(uuid)?.recentLogs(100) ?? [],
    async close() {
      app.server.closeAllConnections();
      await Promise.all([app.close(), manager.shutdown()]);
      await rm(dataDirectory, { recursive: true, force: true });
    },
  };
}

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { JwtDenylist } from '@aerie/daemon/auth/jwt-denylist';
import { buildDaemonApp } from '@aerie/daemon/http/app';
import type { ConnectionLimits } from '@aerie/daemon/http/connection-limits';
import { PanelClient } from '@aerie/daemon/panel-client/panel-client';
import { ProcessDriver } from '@aerie/daemon/runtime/process/process-driver';
import { ProcessSandbox } from '@aerie/daemon/runtime/process/sandbox/process-sandbox';
import { ServerManager } from '@aerie/daemon/server/server-manager';
import { NODE_TOKEN } from '@aerie/daemon/testing/daemon-harness';
import { fileServerConfiguration } from '@aerie/daemon/testing/file-api-fixtures';
import {
  PANEL_TOKEN,
  PANEL_TOKEN_ID,
  type PanelStandIn,
  startPanelStandIn,
} from '@aerie/daemon/testing/panel-stand-in';
import { consoleWebsocketPlugins } from '@aerie/daemon/websocket/daemon-plugins';
import { sleep } from '@aerie/daemon/websocket/testing/test-socket';
import type { FastifyInstance } from 'fastify';

export interface TestApp {
  url: string;
  port: number;
  /** The daemon's Fastify app: a test may add hooks before the first request. */
  app: FastifyInstance;
  panel: PanelStandIn;
  /** The one server's directory on the host. */
  root: string;
  close(): Promise<void>;
}

/**
 * The real daemon app on 127.0.0.1:0 with the console websocket, one booted server (`uuid`, no install script)
 * behind a panel stand-in, the given connection limits, and one extra node-token route `GET /api/test/working?ms=`
 * whose handler works that long without moving a byte (as a big compress does). Unlike the shared harness it hands
 * out the app itself, for its server and hooks.
 */
export async function startTestApp(
  uuid: string,
  options: {
    connectionLimits?: Partial<ConnectionLimits>;
    /** Called before the app listens (hooks can only be added then). */
    beforeListen?: (app: FastifyInstance) => void;
  } = {},
): Promise<TestApp> {
  const panel = await startPanelStandIn();
  panel.servers.set(uuid, fileServerConfiguration(uuid));
  const dataDirectory = await mkdtemp(path.join(tmpdir(), 'aerie-http-app-'));
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
  // Tokens are signed in the same second as the daemon starts: count its boot a minute earlier.
  const websocket = consoleWebsocketPlugins({
    denylist: new JwtDenylist({ bootTime: new Date(Date.now() - 60_000) }),
  });
  const app = buildDaemonApp({
    config: { token: NODE_TOKEN, panelUrl: panel.url, allowedOrigins: [] },
    manager,
    connectionLimits: options.connectionLimits,
    registerWebsocket: websocket.registerWebsocket,
    registerProtected: async (scope, ...rest) => {
      await websocket.registerProtected(scope, ...rest);
      scope.get<{ Querystring: { ms: string } }>('/api/test/working', async (request) => {
        await sleep(Number(request.query.ms));
        return { worked: true };
      });
    },
  });
  options.beforeListen?.(app);
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    app,
    panel,
    root: path.join(dataDirectory, 'volumes', uuid),
    async close() {
      app.server.closeAllConnections();
      await Promise.all([app.close(), manager.shutdown()]);
      await panel.close();
      await rm(dataDirectory, { recursive: true, force: true });
    },
  };
}

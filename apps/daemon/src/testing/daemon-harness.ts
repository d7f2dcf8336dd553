import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { BackupService, type BackupServiceOptions } from '@aerie/daemon/backups/backup-service';
import { buildDaemonApp, type DaemonAppOptions } from '@aerie/daemon/http/app';
import type { DaemonTransfers } from '@aerie/daemon/http/transfer-routes';
import { PanelClient } from '@aerie/daemon/panel-client/panel-client';
import { ProcessDriver } from '@aerie/daemon/runtime/process/process-driver';
import { ProcessSandbox } from '@aerie/daemon/runtime/process/sandbox/process-sandbox';
import { ServerManager, type ServerManagerOptions } from '@aerie/daemon/server/server-manager';
import { IncomingTransfers } from '@aerie/daemon/transfers/incoming-transfers';
import { OutgoingTransfers, type OutgoingTransfersOptions } from '@aerie/daemon/transfers/outgoing-transfers';
import { PANEL_TOKEN, PANEL_TOKEN_ID, type PanelStandIn } from './panel-stand-in';

/** The node token the panel stand-in's daemon answers to (what the panel would send). */
export const NODE_TOKEN = PANEL_TOKEN;

export interface TestDaemon {
  url: string;
  manager: ServerManager;
  dataDirectory: string;
  /** The daemon's backups, in `<dataDirectory>/backups` unless `backupOptions.directory` says otherwise. */
  backups: BackupService;
  /** Its outgoing and incoming transfers (routes on). */
  transfers: DaemonTransfers & { outgoing: OutgoingTransfers };
  /** A request as the panel makes it (node token), unless `token` says otherwise (`null`: no header). */
  request(
    method: string,
    url: string,
    options?: { body?: unknown; token?: string | null; headers?: Record<string, string> },
  ): Promise<{ status: number; headers: Headers; body: unknown }>;
  /** Like SIGTERM: stops serving, ends process servers (states.json keeps them), writes states. */
  stop(): Promise<void>;
  /** stop(), then removes the data directory unless it is to be booted again. */
  close(options?: { keepData?: boolean }): Promise<void>;
}

/**
 * A real daemon on 127.0.0.1:0 (process driver, real panel client) booted against a panel stand-in, in a fresh
 * data directory (or the given one, to test a reboot).
 */
export async function startTestDaemon(options: {
  panel: PanelStandIn;
  dataDirectory?: string;
  serverOptions?: ServerManagerOptions['serverOptions'];
  plugins?: Pick<DaemonAppOptions, 'registerWebsocket' | 'registerProtected' | 'registerPublic'>;
  /** The backup service's settings (a given `backups` is used as is, e.g. one also given to the signed routes). */
  backupOptions?: Partial<BackupServiceOptions>;
  backups?: BackupService;
  /** The node's allowed mounts (DAEMON_ALLOWED_MOUNTS). */
  mounts?: ServerManagerOptions['mounts'];
  /** The outgoing transfers' settings (rate limit, time-outs). */
  transferOptions?: Omit<OutgoingTransfersOptions, 'panel'>;
}): Promise<TestDaemon> {
  const dataDirectory = options.dataDirectory ?? (await mkdtemp(path.join(tmpdir(), 'aerie-daemon-data-')));
  const panel = new PanelClient({
    url: options.panel.url,
    tokenId: PANEL_TOKEN_ID,
    token: PANEL_TOKEN,
    retryForMs: 2000,
    firstRetryDelayMs: 50,
  });
  const manager = new ServerManager({
    dataDirectory,
    driver: new ProcessDriver({
      tmpDirectory: path.join(dataDirectory, 'tmp'),
      runDirectory: path.join(dataDirectory, 'run'),
      sandbox: ProcessSandbox.unsafe(),
    }),
    panel,
    serverOptions: { crashTimeoutMs: 60_000, stopTimeoutMs: 5000, ...options.serverOptions },
    statesDebounceMs: 50,
    mounts: options.mounts,
  });
  await manager.boot();
  const backups =
    options.backups ??
    new BackupService({
      directory: path.join(dataDirectory, 'backups'),
      panel,
      log: () => {},
      ...options.backupOptions,
    });
  const transfers = {
    outgoing: new OutgoingTransfers({ panel, ...options.transferOptions }),
    incoming: new IncomingTransfers({ manager, panel }),
  };
  const app = buildDaemonApp({
    backups,
    transfers,
    config: {
      token: NODE_TOKEN,
      panelUrl: options.panel.url,
      allowedOrigins: ['https://extra.example.com'],
      dataDirectory,
    },
    manager,
    ...options.plugins,
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    await backups.idle();
    await transfers.outgoing.settled();
    // As `aerie daemon` on SIGTERM: a keep-alive connection whose response the client already read in full (a
    // streamed body ends server-side a moment later) would otherwise hold close() until its timeout.
    app.server.closeAllConnections?.();
    await Promise.all([app.close(), manager.shutdown()]);
  };
  return {
    url,
    manager,
    dataDirectory,
    backups,
    transfers,
    async request(method, route, { body, token = NODE_TOKEN, headers = {} } = {}) {
      const response = await fetch(`${url}${route}`, {
        method,
        headers: {
          ...(token === null ? {} : { authorization: `Bearer ${token}` }),
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...headers,
        },
        body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
      });
      const text = await response.text();
      return {
        status: response.status,
        headers: response.headers,
        body: text === '' ? undefined : JSON.parse(text),
      };
    },
    stop,
    async close({ keepData = false } = {}) {
      await stop();
      if (!keepData) await rm(dataDirectory, { recursive: true, force: true });
    },
  };
}

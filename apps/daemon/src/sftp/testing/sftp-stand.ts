import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { JwtDenylist } from '@aerie/daemon/auth/jwt-denylist';
import { PanelClient } from '@aerie/daemon/panel-client/panel-client';
import type { ActivityRecorder } from '@aerie/daemon/sftp/sftp-activity';
import type { SftpLimits } from '@aerie/daemon/sftp/sftp-limits';
import { SftpServer } from '@aerie/daemon/sftp/sftp-server';
import { startTestDaemon, type TestDaemon } from '@aerie/daemon/testing/daemon-harness';
import { fileServerConfiguration } from '@aerie/daemon/testing/file-api-fixtures';
import {
  PANEL_TOKEN,
  PANEL_TOKEN_ID,
  type PanelStandIn,
  startPanelStandIn,
} from '@aerie/daemon/testing/panel-stand-in';
import { consoleWebsocketPlugins } from '@aerie/daemon/websocket/daemon-plugins';
import { splitSftpUsername } from '@aerie/shared/sftp/sftp-wire';
import ssh2, { type ConnectConfig, type SFTPWrapper } from 'ssh2';

/** A user the panel stand-in knows: the password, the public keys (`ssh-ed25519 AAAA…`), the permissions. */
export interface StandAccount {
  uuid: string;
  password: string;
  keys: string[];
  permissions: string[];
}

export interface SftpStand {
  panel: PanelStandIn;
  daemon: TestDaemon;
  sftp: SftpServer;
  denylist: JwtDenylist;
  port: number;
  /** The server every account may use: uuid, the 8-character identifier, its directory on the host. */
  server: { uuid: string; id: string; root: string };
  /** Panel usernames → accounts; the stand-in answers the SFTP login as the panel would. */
  accounts: Map<string, StandAccount>;
  /** What the SFTP server logged (closed sessions with their reason, warnings). */
  logs: string[];
  /** The jti the stand-in hands out for a user on a server (the panel's md5 stands in as plain text). */
  jtiOf(userUuid: string, serverUuid: string): string;
  close(): Promise<void>;
}

/**
 * A real daemon (process driver, real panel client, the deny routes) with its SFTP server on a free port, and a
 * panel stand-in answering `/api/remote/sftp/auth` from `accounts` for one server (disk limit `diskMb`).
 */
export async function startSftpStand(
  options: {
    diskMb?: number;
    denylist?: string[];
    limits?: Partial<SftpLimits>;
    /** Where the SFTP server reports logins and changes (none: not reported). */
    activity?: ActivityRecorder;
  } = {},
): Promise<SftpStand> {
  const panel = await startPanelStandIn();
  const uuid = randomUUID();
  panel.servers.set(
    uuid,
    fileServerConfiguration(uuid, { diskMb: options.diskMb, denylist: options.denylist }),
  );
  const denylist = new JwtDenylist();
  const daemon = await startTestDaemon({ panel, plugins: consoleWebsocketPlugins({ denylist }) });
  const accounts = new Map<string, StandAccount>();
  const logs: string[] = [];
  const jtiOf = (userUuid: string, serverUuid: string) => `jti:${userUuid}:${serverUuid}`;
  panel.sftpAuth = (body) => {
    const parts = splitSftpUsername(body.username);
    const account = parts && accounts.get(parts.user.toLowerCase());
    const server = parts && [...panel.servers.keys()].find((candidate) => candidate.startsWith(parts.server));
    const matches =
      body.type === 'public_key'
        ? account?.keys.some((key) => key.split(' ').slice(0, 2).join(' ') === body.password)
        : account?.password === body.password;
    if (!account || !server || !matches) {
      return { status: 403, body: { errors: [{ detail: 'Authorization credentials were not correct.' }] } };
    }
    return {
      status: 200,
      body: {
        user: account.uuid,
        server,
        permissions: account.permissions,
        jti: jtiOf(account.uuid, server),
      },
    };
  };
  const sftp = await SftpServer.start({
    host: '127.0.0.1',
    port: 0,
    dataDirectory: daemon.dataDirectory,
    manager: daemon.manager,
    panel: new PanelClient({ url: panel.url, tokenId: PANEL_TOKEN_ID, token: PANEL_TOKEN }),
    denylist,
    limits: options.limits,
    log: { info: (line) => logs.push(line), warn: (line) => logs.push(line) },
    ...(options.activity ? { activity: options.activity } : {}),
  });
  return {
    panel,
    daemon,
    sftp,
    denylist,
    port: sftp.port,
    server: { uuid, id: uuid.slice(0, 8), root: path.join(daemon.dataDirectory, 'volumes', uuid) },
    accounts,
    logs,
    jtiOf,
    async close() {
      await sftp.close();
      await daemon.close();
      await panel.close();
    },
  };
}

/** A logged-in ssh2 client with its SFTP channel. */
export interface SftpClient {
  client: ssh2.Client;
  sftp: SFTPWrapper;
  /** Resolves when the connection closes, whoever closed it. */
  closed: Promise<void>;
  end(): void;
}

/** Connects and logs in with ssh2's own client; rejects with the client's error (a refused login). */
export function connectClient(
  port: number,
  config: Omit<ConnectConfig, 'host' | 'port'>,
): Promise<ssh2.Client> {
  return new Promise((resolve, reject) => {
    const client = new ssh2.Client();
    client.once('ready', () => resolve(client));
    // A refused login errors, and its socket may error again on the way down: only the first one matters.
    client.on('error', reject);
    client.once('close', () => reject(new Error('The connection closed before the login.')));
    client.connect({ host: '127.0.0.1', port, readyTimeout: 10_000, ...config });
  });
}

/** Logs in and opens the SFTP subsystem. */
export async function openSftp(
  port: number,
  config: Omit<ConnectConfig, 'host' | 'port'>,
): Promise<SftpClient> {
  const client = await connectClient(port, config);
  const closed = new Promise<void>((resolve) => client.once('close', () => resolve()));
  const sftp = await new Promise<SFTPWrapper>((resolve, reject) =>
    client.sftp((error, channel) => (error ? reject(error) : resolve(channel))),
  );
  return { client, sftp, closed, end: () => client.end() };
}

/** Calls an ssh2 SFTP client method as a promise: `await call(sftp, 'readdir', '/')`. */
export function call<T = unknown>(sftp: SFTPWrapper, method: string, ...args: unknown[]): Promise<T> {
  return new Promise((resolve, reject) => {
    (sftp as unknown as Record<string, (...rest: unknown[]) => void>)[method]?.call(
      sftp,
      ...args,
      (error: Error | null | undefined, value: T) => (error ? reject(error) : resolve(value)),
    );
  });
}

/** The SFTP status code of a refused call (`2` no such file, `3` permission denied, `4` failure). */
export function statusOf(promise: Promise<unknown>): Promise<number | 'ok'> {
  return promise.then(
    () => 'ok' as const,
    (error: { code?: number }) => error.code ?? -1,
  );
}

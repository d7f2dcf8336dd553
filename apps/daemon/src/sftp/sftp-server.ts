import net, { type Socket } from 'node:net';
import type { JwtDenylist } from '@aerie/daemon/auth/jwt-denylist';
import { addressKey } from '@aerie/daemon/http-kit/connection-guard';
import type { SftpAuthApi } from '@aerie/daemon/panel-client/panel-client';
import type { ServerManager } from '@aerie/daemon/server/server-manager';
import type ssh2 from 'ssh2';
import type { ClientInfo, Connection } from 'ssh2';
import { hostKeyFrom, readHostKey } from './host-key';
import { SftpSessionRegistry } from './session-registry';
import type { ActivityRecorder } from './sftp-activity';
import { DEFAULT_SFTP_LIMITS, type SftpLimits } from './sftp-limits';
import type { SftpLogin } from './sftp-login';

export interface SftpServerOptions {
  /** Where to listen: the daemon's host and DAEMON_SFTP_PORT (0: the system chooses). */
  host: string;
  port: number;
  /** DAEMON_DATA_DIR: the host key lives in `.sftp/` there. */
  dataDirectory: string;
  manager: ServerManager;
  panel: SftpAuthApi;
  /** The daemon's one denylist: its denials close the sessions they concern. */
  denylist: JwtDenylist;
  limits?: Partial<SftpLimits>;
  log?: { info(message: string): void; warn(message: string): void };
  /** The activity outbox: logins and changes are reported there (none: not reported). */
  activity?: ActivityRecorder;
}

interface PendingSocket {
  socket: Socket;
  loginTimer: NodeJS.Timeout;
}

/** `::ffff:1.2.3.4` is 1.2.3.4: the panel counts failed logins per address, whichever way it came. */
const plainAddress = (address: string | undefined) => (address ?? '').replace(/^::ffff:(?=\d+\.)/i, '');

/**
 * The daemon's SFTP server (reference/wings.md §8) on ssh2, with its own TCP listener in front: connections are
 * admitted per address and in all before ssh2 sees a byte, must log in within the login time-out, and then live
 * in the session registry until they close or are revoked.
 */
export class SftpServer {
  readonly registry: SftpSessionRegistry;
  readonly #tcp: net.Server;
  readonly #pending = new Map<string, PendingSocket>();
  readonly #sockets = new Set<Socket>();
  readonly #perAddress = new Map<string, number>();
  #closing: Promise<void> | undefined;

  private constructor(tcp: net.Server, registry: SftpSessionRegistry) {
    this.#tcp = tcp;
    this.registry = registry;
  }

  /**
   * Loads (or makes) the host key and listens.
   * @throws the listen error (EADDRINUSE, EACCES) when the port cannot be taken
   */
  static async start(options: SftpServerOptions): Promise<SftpServer> {
    const limits: SftpLimits = { ...DEFAULT_SFTP_LIMITS, ...options.limits };
    const log = options.log ?? { info: console.log, warn: console.warn };
    // The key file is read now (a read error turns SFTP off at boot, as before); ssh2, the key's check (or its
    // creation) and the protocol's modules load with the first connection: a node nobody reaches by SFTP never
    // carries them (issue 19: ~8 MiB of the idle daemon's RSS).
    const existingKey = await readHostKey(options.dataDirectory);
    const registry = new SftpSessionRegistry({
      manager: options.manager,
      denylist: options.denylist,
      maxSessionsPerServer: limits.maxSessionsPerServer,
    });
    const tcp = net.createServer();
    const server = new SftpServer(tcp, registry);
    const sshServer = async (): Promise<ssh2.Server> => {
      const [{ default: ssh2 }, { SftpLogin }, { SftpConnection }, hostKey] = await Promise.all([
        import('ssh2'),
        import('./sftp-login'),
        import('./sftp-connection'),
        hostKeyFrom(options.dataDirectory, existingKey),
      ]);
      const login = new SftpLogin({
        panel: options.panel,
        manager: options.manager,
        denylist: options.denylist,
        hasRoom: (uuid) => registry.hasRoom(uuid),
        warn: log.warn,
      });
      const created = new ssh2.Server({ hostKeys: [hostKey], ident: 'Aerie_SFTP' }, (client, info) =>
        server.#accept(client, info, {
          limits,
          login,
          manager: options.manager,
          log,
          activity: options.activity,
          SftpConnection,
        }),
      );
      created.on('error', (error: Error) => log.warn(`SFTP server error: ${error.message}`));
      return created;
    };
    let ssh: Promise<ssh2.Server> | undefined;
    tcp.on('connection', (socket) => {
      socket.on('error', () => {}); // a reset while ssh2 loads must not throw
      ssh ??= sshServer().catch((error: Error) => {
        ssh = undefined; // the next connection tries again
        throw error;
      });
      ssh.then(
        (ready) => server.#admit(socket, ready, limits),
        (error: Error) => {
          log.warn(`SFTP server error: ${error.message}`);
          socket.destroy();
        },
      );
    });
    await new Promise<void>((resolve, reject) => {
      tcp.once('error', reject);
      tcp.listen(options.port, options.host, () => {
        tcp.off('error', reject);
        resolve();
      });
    });
    tcp.on('error', (error) => log.warn(`SFTP listener error: ${error.message}`));
    return server;
  }

  get port(): number {
    const address = this.#tcp.address();
    return typeof address === 'object' && address ? address.port : 0;
  }

  /** Open TCP connections, logged in or not. */
  get connections(): number {
    return this.#sockets.size;
  }

  /** Stops listening, closes every session and drops every connection. */
  close(): Promise<void> {
    this.#closing ??= new Promise<void>((resolve) => {
      this.#tcp.close(() => resolve());
      this.registry.closeAll('the daemon is stopping');
      for (const socket of this.#sockets) socket.destroy();
    });
    return this.#closing;
  }

  /** The TCP gate: a place per address and in all, and the login time-out, before ssh2 reads anything. */
  #admit(socket: Socket, ssh: ssh2.Server, limits: SftpLimits): void {
    socket.on('error', () => {});
    const key = addressKey(socket.remoteAddress);
    const fromAddress = this.#perAddress.get(key) ?? 0;
    if (
      this.#closing ||
      this.#sockets.size >= limits.maxConnections ||
      fromAddress >= limits.maxConnectionsPerAddress
    ) {
      socket.destroy();
      return;
    }
    // SFTP answers are small packets the client waits for (a write's status before the next write): with Nagle's
    // algorithm each waited for the previous one's acknowledgement, which made uploads 3x slower than sshd's.
    socket.setNoDelay(true);
    this.#sockets.add(socket);
    this.#perAddress.set(key, fromAddress + 1);
    const id = `${socket.remoteAddress}|${socket.remotePort}`;
    const loginTimer = setTimeout(() => socket.destroy(), limits.loginTimeoutMs);
    loginTimer.unref();
    this.#pending.set(id, { socket, loginTimer });
    socket.once('close', () => {
      clearTimeout(loginTimer);
      if (this.#pending.get(id)?.socket === socket) this.#pending.delete(id);
      this.#sockets.delete(socket);
      const left = (this.#perAddress.get(key) ?? 1) - 1;
      if (left <= 0) this.#perAddress.delete(key);
      else this.#perAddress.set(key, left);
    });
    ssh.injectSocket(socket);
  }

  /** ssh2 has read the client's identification: the connection gets its handler. */
  #accept(
    client: Connection,
    info: ClientInfo,
    deps: {
      limits: SftpLimits;
      login: SftpLogin;
      manager: ServerManager;
      log: { info(message: string): void; warn(message: string): void };
      activity: ActivityRecorder | undefined;
      SftpConnection: typeof import('./sftp-connection').SftpConnection;
    },
  ): void {
    client.on('error', () => {});
    const id = `${info.ip}|${info.port}`;
    const pending = this.#pending.get(id);
    if (!pending) {
      client.end();
      return;
    }
    this.#pending.delete(id);
    new deps.SftpConnection(client, info, {
      socket: pending.socket,
      ip: plainAddress(info.ip),
      limits: deps.limits,
      login: deps.login,
      registry: this.registry,
      manager: deps.manager,
      onLoggedIn: () => clearTimeout(pending.loginTimer),
      log: deps.log,
      activity: deps.activity,
    });
  }
}

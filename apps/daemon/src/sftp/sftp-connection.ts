import type { Socket } from 'node:net';
import type { ServerManager } from '@aerie/daemon/server/server-manager';
import type { AuthContext, ClientInfo, Connection, Session } from 'ssh2';
import type { LiveSftpSession, SftpSessionRegistry } from './session-registry';
import { type ActivityRecorder, SftpActivity } from './sftp-activity';
import type { SftpLimits } from './sftp-limits';
import type { SftpAuthority, SftpLogin } from './sftp-login';
import { SftpSession } from './sftp-session';

/** Session requests other than the `sftp` subsystem: all refused (wings.md §8: no shell, no exec, no forwarding). */
const REFUSED_SESSION_REQUESTS = [
  'pty',
  'shell',
  'exec',
  'env',
  'x11',
  'auth-agent',
  'subsystem',
  'signal',
  'window-change',
] as const;

const AUTH_METHODS: ('password' | 'publickey')[] = ['password', 'publickey'];
/** After `end()` the client gets this long to hang up before its socket is destroyed. */
const CLOSE_GRACE_MS = 2000;

export interface SftpConnectionOptions {
  socket: Socket;
  /** The client's address as the panel's throttle counts it. */
  ip: string;
  limits: SftpLimits;
  login: SftpLogin;
  registry: SftpSessionRegistry;
  manager: Pick<ServerManager, 'get'>;
  /** Called once the client has logged in (the login time-out stops). */
  onLoggedIn: () => void;
  /** The activity outbox: the login and each change made are reported there. */
  activity?: ActivityRecorder | undefined;
  log: { info(message: string): void; warn(message: string): void };
}

/**
 * One SSH connection to the SFTP server, from its first packet to its close. It counts authentication attempts
 * (the 7th ends it), takes the panel's verdict on each, opens nothing but `session` channels running the `sftp`
 * subsystem, and closes itself when idle, when the registry revokes it, or when the client misbehaves. Every
 * error of the client or its socket is caught here: a malformed packet ends this connection and nothing else.
 */
export class SftpConnection implements LiveSftpSession {
  #authority: SftpAuthority | undefined;
  #activity: SftpActivity | undefined;
  readonly #client: Connection;
  readonly #options: SftpConnectionOptions;
  readonly #sessions = new Set<SftpSession>();
  #attempts = 0;
  #noneSeen = false;
  #channels = 0;
  #closed = false;
  #unregister: () => void = () => {};
  #idleTimer: NodeJS.Timeout | undefined;
  #pauses = 0;

  constructor(client: Connection, info: ClientInfo, options: SftpConnectionOptions) {
    this.#client = client;
    this.#options = options;
    client.on('error', () => {
      // Malformed packets, resets, time-outs: ssh2 ends the socket itself; the 'close' below cleans up.
    });
    client.on('authentication', (ctx) => this.#authenticate(ctx, info));
    client.on('ready', () => this.#ready());
    client.on('session', (accept, reject) => this.#session(accept, reject));
    client.on('tcpip', (_accept, reject) => reject());
    client.on('openssh.streamlocal', (_accept, reject) => reject());
    client.on('request', (_accept, reject) => reject?.());
    client.on('close', () => this.#cleanUp());
  }

  get authority(): SftpAuthority {
    if (!this.#authority) throw new Error('This connection has not logged in.');
    return this.#authority;
  }

  close(reason: string): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#unregister();
    if (this.#authority && reason !== 'idle') {
      this.#options.log.info(
        `SFTP session of ${this.#authority.username} from ${this.#options.ip} closed: ${reason}`,
      );
    }
    for (const session of this.#sessions) void session.end();
    try {
      this.#client.end();
    } catch {
      // The socket is already gone.
    }
    const socket = this.#options.socket;
    setTimeout(() => socket.destroy(), CLOSE_GRACE_MS).unref();
  }

  #authenticate(ctx: AuthContext, info: ClientInfo): void {
    if (this.#closed) {
      ctx.reject();
      return;
    }
    // The first `none` is how clients ask which methods exist; any further request counts.
    if (ctx.method !== 'none' || this.#noneSeen) this.#attempts++;
    if (ctx.method === 'none') this.#noneSeen = true;
    if (this.#attempts > this.#options.limits.maxAuthAttempts) {
      ctx.reject();
      this.close('too many authentication attempts');
      return;
    }
    if (ctx.method !== 'password' && ctx.method !== 'publickey') {
      ctx.reject(AUTH_METHODS);
      return;
    }
    this.#options.login
      .decide(ctx, { ip: this.#options.ip, version: info.header.identRaw })
      .then((verdict) => {
        if (this.#closed || !verdict.accept) return ctx.reject(AUTH_METHODS);
        if (verdict.authority) this.#authority = verdict.authority;
        ctx.accept();
      })
      .catch((error: unknown) => {
        this.#options.log.warn(
          `SFTP login failed: ${error instanceof Error ? error.message : String(error)}`,
        );
        if (!this.#closed) ctx.reject(AUTH_METHODS);
      });
  }

  #ready(): void {
    this.#options.onLoggedIn();
    if (this.#closed) return;
    if (!this.#authority) {
      this.close('logged in without an authority');
      return;
    }
    this.#unregister = this.#options.registry.add(this);
    if (this.#options.activity) {
      this.#activity = new SftpActivity(this.#options.activity, { ...this.#authority, ip: this.#options.ip });
      this.#activity.loggedIn();
    }
    this.#touch();
  }

  #session(accept: () => Session, reject: () => void): void {
    if (this.#closed || !this.#authority || this.#channels >= this.#options.limits.maxChannelsPerConnection) {
      reject();
      return;
    }
    this.#channels++;
    const session = accept();
    session.on('close', () => {
      this.#channels--;
    });
    for (const request of REFUSED_SESSION_REQUESTS) {
      session.on(request, (_accept: unknown, rejectRequest?: () => void) => rejectRequest?.());
    }
    let started = false;
    session.on('sftp', (acceptSftp, rejectSftp) => {
      const authority = this.#authority;
      if (started || this.#closed || !authority) return rejectSftp();
      started = true;
      const sftp = acceptSftp();
      const handler = new SftpSession({
        sftp,
        authority,
        limits: this.#options.limits,
        activity: this.#activity,
        server: {
          files: async () => {
            const server = this.#options.manager.get(authority.serverUuid);
            if (!server || server.isSuspended || server.isInstalling) return undefined;
            return server.files();
          },
        },
        flow: {
          pause: () => {
            if (this.#pauses++ === 0) this.#options.socket.pause();
          },
          resume: () => {
            if (--this.#pauses === 0) this.#options.socket.resume();
          },
          unsentAnswers: () => this.#unsentAnswers(sftp),
          touch: () => this.#touch(),
          abort: (reason) => this.close(reason),
          warn: (message) => this.#options.log.warn(message),
        },
      });
      this.#sessions.add(handler);
      sftp.on('close', () => this.#sessions.delete(handler));
    });
  }

  /**
   * Answers waiting to reach the client: those ssh2 queues while the client grants no window (its `_buffer`, read
   * here because ssh2 offers no public figure; absent, this part counts 0) and the socket's own queue, counted in
   * answers of 64 KiB.
   */
  #unsentAnswers(sftp: unknown): number {
    const queued = (sftp as { _buffer?: unknown[] })._buffer?.length ?? 0;
    return queued + Math.floor(this.#options.socket.writableLength / 65_536);
  }

  /** Activity: the idle clock starts again. It fires only with nothing in flight. */
  #touch(): void {
    if (this.#closed) return;
    clearTimeout(this.#idleTimer);
    this.#idleTimer = setTimeout(() => {
      const busy = [...this.#sessions].some((session) => session.inFlight > 0);
      if (busy) this.#touch();
      else this.close('idle');
    }, this.#options.limits.idleTimeoutMs);
    this.#idleTimer.unref();
  }

  #cleanUp(): void {
    this.#closed = true;
    this.#unregister();
    clearTimeout(this.#idleTimer);
    for (const session of this.#sessions) void session.end();
    this.#sessions.clear();
  }
}

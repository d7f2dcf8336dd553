import { randomUUID } from 'node:crypto';
import { type DaemonJwtClaims, verifyDaemonJwt } from '@aerie/daemon/auth/daemon-jwt';
import type { JwtDenylist } from '@aerie/daemon/auth/jwt-denylist';
import { DAEMON_PERMISSIONS, hasPermission } from '@aerie/daemon/auth/permissions';
import {
  type ConsoleServer,
  POWER_LOCKED_MESSAGE,
  type PowerAction,
} from '@aerie/daemon/server/console-server';
import { serverMessages } from '@aerie/shared/servers/server-messages';
import type { FastifyBaseLogger } from 'fastify';
import type { RawData, WebSocket } from 'ws';
import type { ConnectionSlot, Refusal, SocketIdentity } from './connection-registry';
import type { ConsoleHub, HubEvent, HubEvents } from './console-hub';
import { encodeMessage, parseMessage, type SocketMessage } from './socket-message';
import { type OutboxKind, SocketOutbox } from './socket-outbox';
import { TokenBucket } from './token-bucket';
import { CLOSE, type ConsoleWebsocketLimits, TOKEN_EXPIRING_SECONDS } from './websocket-limits';
import { websocketTokenProblem } from './websocket-token';

/** What a socket without `admin.websocket.errors` sees instead of the real error (Wings' text). */
export const GENERIC_ERROR_MESSAGE = 'an unexpected error was encountered while handling this request';

/** Wings' text for any message to a suspended server. */
export const SUSPENDED_MESSAGE = 'server is currently in a suspended state';

/** The permission each `set state` action needs (kill is a stop). */
const POWER_PERMISSIONS: Record<PowerAction, string> = {
  start: DAEMON_PERMISSIONS.start,
  stop: DAEMON_PERMISSIONS.stop,
  restart: DAEMON_PERMISSIONS.restart,
  kill: DAEMON_PERMISSIONS.stop,
};

const isPowerAction = (value: string): value is PowerAction => Object.hasOwn(POWER_PERMISSIONS, value);

/** How a socket refused a console place is closed. */
const REFUSAL_CLOSES: Record<Refusal, { code: number; reason: string }> = {
  server: CLOSE.serverFull,
  user: CLOSE.userFull,
  ip: CLOSE.addressFull,
};

/** Whose places a token counts against: its user, and whether it holds `*` (owner or root admin). */
function socketIdentity(claims: DaemonJwtClaims): SocketIdentity {
  const user = claims.user_uuid ?? (claims.user_id === undefined ? '' : `#${claims.user_id}`);
  return { user, owner: claims.permissions.includes('*') };
}

export interface ConsoleSocketOptions {
  ws: WebSocket;
  server: ConsoleServer;
  /** Where the socket follows its server's events (one listener per server, not per socket). */
  hub: ConsoleHub;
  nodeToken: string;
  denylist: JwtDenylist;
  limits: ConsoleWebsocketLimits;
  log: FastifyBaseLogger;
  /** Its place in the registry: the first valid `auth` moves it to the authenticated pool, or is refused. */
  slot?: ConnectionSlot<ConsoleSocket>;
}

/**
 * One console connection: Wings' event protocol (pterodactyl-client-api.md §9.2) between a browser and a server.
 * Inbound messages are handled one after another, so an `auth` is settled before the message behind it.
 */
export class ConsoleSocket {
  readonly outbox: SocketOutbox;
  readonly #ws: WebSocket;
  readonly #server: ConsoleServer;
  readonly #options: ConsoleSocketOptions;
  readonly #bucket: TokenBucket;
  /** Ends each subscription to the server's events (through the hub). */
  readonly #unsubscribes: (() => void)[] = [];
  #claims: DaemonJwtClaims | undefined;
  /** Outbound events are dropped once the token fails; the client hears why once, not per line. */
  #jwtErrorSent = false;
  #inbound: Promise<void> = Promise.resolve();
  #authTimer: NodeJS.Timeout | undefined;
  #tokenTimer: NodeJS.Timeout | undefined;
  #closed = false;

  constructor(options: ConsoleSocketOptions) {
    this.#options = options;
    this.#ws = options.ws;
    this.#server = options.server;
    const { limits } = options;
    this.outbox = new SocketOutbox(options.ws, {
      maxQueuedLines: limits.maxQueuedLines,
      highWaterBytes: limits.sendBufferHighWaterBytes,
    });
    this.#bucket = new TokenBucket(limits.messagesPerSecond, limits.messageBurst);
    this.#authTimer = setTimeout(() => this.#close(CLOSE.authTimeout), limits.authTimeoutMs);
    // Even a socket that never authenticated must go when its server does.
    this.#listen('deleted', () => {
      this.#send('deleted', ['null']);
      this.#close(CLOSE.serverDeleted);
    });
    this.#listen('suspend', () => this.revalidate());
    this.#ws.on('message', (data, isBinary) => this.#onFrame(data, isBinary));
    this.#ws.on('close', () => this.#dispose());
  }

  #onFrame(data: RawData, isBinary: boolean): void {
    if (this.#closed) return;
    if (!this.#bucket.take()) {
      this.#close(CLOSE.rateLimited);
      return;
    }
    const message = parseMessage(data, isBinary);
    if (!message) return;
    this.#inbound = this.#inbound
      .then(() => this.#handle(message))
      .catch((error: unknown) => this.#options.log.error({ err: error }, 'console websocket message failed'));
  }

  /**
   * Looks at the server and the token again after a deny or a suspension: a socket of a suspended server, or one
   * whose token is now denied, is told why and closed at once (a socket that has not authenticated only when its
   * server is suspended: it has no token to deny).
   */
  revalidate(): void {
    if (this.#closed) return;
    if (this.#server.isSuspended) {
      this.#end('daemon error', [errorEvent(SUSPENDED_MESSAGE)], CLOSE.serverSuspended);
      return;
    }
    const problem = this.#claims ? this.#tokenProblem() : undefined;
    if (problem?.code === 'denylisted') this.#end('jwt error', [problem.message], CLOSE.tokenRevoked);
  }

  async #handle(message: SocketMessage): Promise<void> {
    if (this.#closed) return;
    // A suspended server takes nothing, not even an auth: the socket is told and closed.
    if (this.#server.isSuspended) return this.revalidate();
    if (message.event === 'auth') return this.#authenticate(message.args.join(''));
    const problem = this.#tokenProblem();
    if (problem) return this.#push('jwt error', [problem.message], 'control');
    switch (message.event) {
      case 'set state':
        return this.#setState(message.args.join(''));
      case 'send command':
        return this.#sendCommand(message.args.join(''));
      case 'send logs':
        if (this.#server.state === 'offline') return;
        for (const line of this.#server.recentLogs()) this.#send('console output', [line]);
        return;
      case 'send stats':
        return this.#sendStats();
    }
  }

  async #authenticate(token: string): Promise<void> {
    const { nodeToken, denylist } = this.#options;
    const result = await verifyDaemonJwt(token, { nodeToken, purpose: 'websocket' });
    const problem = result.ok
      ? websocketTokenProblem(result.claims, { serverUuid: this.#server.uuid, denylist })
      : result.error;
    // A refused token leaves the one the socket had, if any, in place (as Wings does).
    if (problem || !result.ok) return this.#push('jwt error', [problem?.message ?? ''], 'control');
    // The server may have been suspended while the token was being checked.
    if (this.#closed || this.#server.isSuspended) return this.revalidate();
    const first = this.#claims === undefined;
    if (first) {
      const refusal = this.#options.slot?.authenticate(socketIdentity(result.claims));
      if (refusal) return this.#close(REFUSAL_CLOSES[refusal]);
    }
    this.#claims = result.claims;
    this.#jwtErrorSent = false;
    this.#push('auth success', [], 'control');
    if (!first) return;
    clearTimeout(this.#authTimer);
    this.#subscribe();
    const server = this.#server;
    this.#send('status', [server.state]);
    if (server.state === 'offline' && !server.isInstalling && !server.isTransferring) this.#sendStats();
  }

  #setState(action: string): void {
    if (!isPowerAction(action) || !this.#can(POWER_PERMISSIONS[action])) return;
    this.#server.power(action, 0).catch((error: unknown) => {
      const message = error instanceof Error ? error.message : String(error);
      // Wings tells everyone about the lock: it is the user's own doing, not an internal error. So is a restore
      // the user started.
      this.#sendError(
        message,
        message === POWER_LOCKED_MESSAGE || message === serverMessages.restoringBackup,
      );
    });
  }

  #sendCommand(command: string): void {
    if (!this.#can(DAEMON_PERMISSIONS.sendCommand) || this.#server.state === 'offline') return;
    try {
      this.#server.sendCommand(command);
    } catch (error) {
      this.#sendError(error instanceof Error ? error.message : String(error), false);
    }
  }

  #sendStats(): void {
    this.#send('stats', [JSON.stringify(this.#server.stats())], 'stats');
  }

  /** The server's events, forwarded from the first successful auth until the socket closes. */
  #subscribe(): void {
    this.#listen('status', (state) => this.#send('status', [state]));
    this.#listen('console output', (line) => this.#send('console output', [line], 'line'));
    this.#listen('daemon message', (line) => this.#send('daemon message', [line]));
    this.#listen('install output', (line) => {
      if (this.#can(DAEMON_PERMISSIONS.receiveInstall)) this.#send('install output', [line], 'line');
    });
    this.#listen('install started', () => this.#send('install started', ['']));
    this.#listen('install completed', () => this.#send('install completed', ['']));
    this.#listen('stats', (stats) => this.#send('stats', [JSON.stringify(stats)], 'stats'));
    this.#listen('backup completed', (backup, event) => {
      if (!this.#can(DAEMON_PERMISSIONS.readBackups)) return;
      const args = [JSON.stringify(event)];
      // Both names clients listen for: the one naming the backup (Pterodactyl's SPA) and Wings' plain one.
      this.#send(`backup completed:${backup}`, args);
      this.#send('backup completed', args);
    });
    this.#listen('backup restore completed', () => this.#send('backup restore completed', ['']));
    this.#listen('transfer logs', (line) => {
      if (this.#can(DAEMON_PERMISSIONS.receiveTransfer)) this.#send('transfer logs', [line], 'line');
    });
    this.#listen('transfer status', (status) => this.#send('transfer status', [status]));
    this.#listen('error', (message) => this.#sendError(message, false));
    this.#tokenTimer = setInterval(() => this.#watchToken(), this.#options.limits.tokenCheckIntervalMs);
  }

  #listen<E extends HubEvent>(event: E, listener: (...args: HubEvents[E]) => void): void {
    this.#unsubscribes.push(this.#options.hub.on(this.#server, event, listener));
  }

  /** Wings' watcher: warns a minute ahead so the page can fetch a new token before this one runs out. */
  #watchToken(): void {
    if (!this.#claims) return;
    const secondsLeft = this.#claims.exp - Date.now() / 1000;
    if (secondsLeft <= 0) this.#push('token expired', [], 'control');
    else if (secondsLeft <= TOKEN_EXPIRING_SECONDS) this.#push('token expiring', [], 'control');
  }

  /** An event for the client, sent only while its token holds and its server is not suspended. */
  #send(event: string, args: readonly string[], kind: OutboxKind = 'control'): void {
    // Suspended by a path that has no hook (a start's configuration fetch): the first event closes the socket.
    if (this.#server.isSuspended) {
      this.revalidate();
      return;
    }
    const problem = this.#tokenProblem();
    if (problem) {
      if (this.#claims && !this.#jwtErrorSent) this.#push('jwt error', [problem.message], 'control');
      this.#jwtErrorSent = true;
      return;
    }
    this.#push(event, args, kind);
  }

  #push(event: string, args: readonly string[], kind: OutboxKind): void {
    this.outbox.push(encodeMessage(event, args), kind);
  }

  /** `daemon error` as `Error Event [<id>]: <message>`; the detail only for public texts or admins. */
  #sendError(message: string, isPublic: boolean): void {
    const shown = isPublic || this.#can(DAEMON_PERMISSIONS.receiveErrors) ? message : GENERIC_ERROR_MESSAGE;
    const text = errorEvent(shown);
    if (!isPublic) this.#options.log.warn({ server: this.#server.uuid, text, message }, 'console error');
    this.#send('daemon error', [text]);
  }

  /** A last event, sent past the outbox's queue (which is dropped), then the close frame behind it. */
  #end(event: string, args: readonly string[], close: { code: number; reason: string }): void {
    if (this.#closed) return;
    this.outbox.dispose();
    if (this.#ws.readyState === this.#ws.OPEN) this.#ws.send(encodeMessage(event, args));
    this.#close(close);
  }

  #can(permission: string): boolean {
    return this.#claims !== undefined && hasPermission(this.#claims.permissions, permission);
  }

  #tokenProblem() {
    return websocketTokenProblem(this.#claims, {
      serverUuid: this.#server.uuid,
      denylist: this.#options.denylist,
    });
  }

  #close(close: { code: number; reason: string }): void {
    if (this.#closed) return;
    this.#dispose();
    this.#ws.close(close.code, close.reason);
  }

  #dispose(): void {
    if (this.#closed) return;
    this.#closed = true;
    clearTimeout(this.#authTimer);
    clearInterval(this.#tokenTimer);
    this.outbox.dispose();
    for (const unsubscribe of this.#unsubscribes.splice(0)) unsubscribe();
  }
}

/** Wings' `daemon error` text: `Error Event [<id>]: <message>`, the id also in the daemon's log. */
function errorEvent(message: string): string {
  return `Error Event [${randomUUID()}]: ${message}`;
}

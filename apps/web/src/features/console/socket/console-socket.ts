import { DaemonEvent, finalCloseCodes, isRefreshableJwtError } from '@aerie/shared/console/socket-events';
import { connectTimeoutMs, socketLimits } from '@aerie/shared/console/socket-limits';
import { encodeSocketMessage, parseSocketMessage } from '@aerie/shared/console/socket-message';

/** The part of the browser's WebSocket this client uses; tests hand in a fake at this boundary. */
export interface WebSocketLike {
  readonly readyState: number;
  onopen: ((event: Event) => void) | null;
  onmessage: ((event: MessageEvent) => void) | null;
  onerror: ((event: Event) => void) | null;
  onclose: ((event: CloseEvent) => void) | null;
  send(data: string): void;
  close(code?: number, reason?: string): void;
}

export interface SocketCredentials {
  token: string;
  /** The daemon's websocket address. */
  socket: string;
}

/** What the banner shows: nothing, the connection-trouble notice, or the final credentials error. */
export type ConnectionProblem = 'connecting' | 'credentials' | null;

export interface ConnectionState {
  /** True from `auth success` until the socket closes, fails or its token is refused. */
  connected: boolean;
  problem: ConnectionProblem;
}

export interface ConsoleSocketOptions {
  /** `GET /api/client/servers/{id}/websocket`, called to connect and on every token refresh. */
  fetchCredentials: () => Promise<SocketCredentials>;
  createSocket?: (url: string) => WebSocketLike;
  /** Failures nobody waits for (a token fetch in the background); the browser console by default. */
  onFailure?: (error: unknown) => void;
}

type EventListener = (...args: string[]) => void;

const OPEN = 1;

/** A refresh that failed is tried again after 2 s, then twice as long each time, up to 30 s. */
const REFRESH_RETRY_FIRST_MS = 2_000;
const REFRESH_RETRY_MAX_MS = 30_000;

/**
 * How long a JWT lives (`exp` − `iat`, in seconds), or null for anything that is not one with both claims. Both are
 * the panel's clock: the browser's own clock, which may be off by hours, is never compared with them.
 */
export function tokenLifetime(token: string): number | null {
  const payload = token.split('.')[1];
  if (!payload) return null;
  try {
    const claims = JSON.parse(atob(payload.replace(/-/g, '+').replace(/_/g, '/'))) as {
      iat?: unknown;
      exp?: unknown;
    };
    const { iat, exp } = claims;
    if (typeof iat !== 'number' || typeof exp !== 'number' || !(exp > iat)) return null;
    return Number.isFinite(exp - iat) ? exp - iat : null;
  } catch {
    return null;
  }
}

/**
 * One server's console connection with Pterodactyl's lifecycle (spec §4 "Websocket lifecycle"): fetch a token,
 * connect, `auth`; refresh the token at half its life and when the daemon says it is expiring, expired, or too
 * old (a failed refresh is tried again, the old token kept meanwhile); a connection
 * attempt not open in time is dropped and retried with a time-out of 5 s growing by 2.5 s up to 20 s; an
 * unexpected close is retried after 1 s; codes 1000, 1001 and 1005 end the connection for good.
 */
export class ConsoleSocket {
  readonly #fetchCredentials: () => Promise<SocketCredentials>;
  readonly #createSocket: (url: string) => WebSocketLike;
  readonly #onFailure: (error: unknown) => void;
  readonly #listeners = new Map<string, Set<EventListener>>();
  readonly #stateListeners = new Set<(state: ConnectionState) => void>();
  #state: ConnectionState = { connected: false, problem: null };
  #socket: WebSocketLike | null = null;
  #url = '';
  #token = '';
  /** Attempts in a row that did not open in time: sets the next attempt's time-out. */
  #timedOut = 0;
  #connectTimer: ReturnType<typeof setTimeout> | undefined;
  #retryTimer: ReturnType<typeof setTimeout> | undefined;
  #refreshing = false;
  /** The proactive refresh at half the token's life, and the retry of a refresh that failed. */
  #refreshTimer: ReturnType<typeof setTimeout> | undefined;
  #refreshRetryMs = REFRESH_RETRY_FIRST_MS;
  #closed = false;

  constructor(options: ConsoleSocketOptions) {
    this.#fetchCredentials = options.fetchCredentials;
    this.#createSocket = options.createSocket ?? ((url) => new WebSocket(url));
    this.#onFailure = options.onFailure ?? ((error) => console.error(error));
  }

  get state(): ConnectionState {
    return this.#state;
  }

  /** Fetches a token and the socket address, then opens the socket (which authenticates once open). */
  async connect(): Promise<void> {
    let credentials: SocketCredentials;
    try {
      credentials = await this.#fetchCredentials();
    } catch (error) {
      this.#onFailure(error);
      return;
    }
    if (this.#closed) return;
    this.#token = credentials.token;
    this.#url = credentials.socket;
    this.#scheduleRefresh();
    this.#open();
  }

  /** Sends an event when the socket is open; returns whether it went out. */
  send(event: string, ...args: string[]): boolean {
    if (this.#socket?.readyState !== OPEN) return false;
    this.#socket.send(encodeSocketMessage(event, args));
    return true;
  }

  /** Listens to one daemon event; returns the unsubscribe function. */
  on(event: string, listener: EventListener): () => void {
    let set = this.#listeners.get(event);
    if (!set) {
      set = new Set();
      this.#listeners.set(event, set);
    }
    set.add(listener);
    return () => void set.delete(listener);
  }

  onStateChange(listener: (state: ConnectionState) => void): () => void {
    this.#stateListeners.add(listener);
    return () => void this.#stateListeners.delete(listener);
  }

  /** Ends the connection for good and forgets every listener (leaving the server). */
  close(): void {
    this.#closed = true;
    clearTimeout(this.#refreshTimer);
    this.#drop();
    this.#listeners.clear();
    this.#stateListeners.clear();
  }

  /** Drops the socket and connects again with fresh credentials: a transfer moves the server to another node. */
  async rebuild(): Promise<void> {
    this.#drop();
    this.#setState({ connected: false, problem: 'connecting' });
    await this.connect();
  }

  #open(): void {
    this.#drop();
    const socket = this.#createSocket(this.#url);
    this.#socket = socket;
    socket.onopen = () => {
      clearTimeout(this.#connectTimer);
      this.#timedOut = 0;
      this.#authenticate();
    };
    socket.onmessage = (event) => this.#receive(event.data);
    socket.onerror = () => this.#setState({ connected: false, problem: 'connecting' });
    socket.onclose = (event) => {
      this.#detach(socket);
      this.#socket = null;
      clearTimeout(this.#connectTimer);
      this.#setState({ ...this.#state, connected: false });
      if (!finalCloseCodes.includes(event.code)) {
        this.#retryTimer = setTimeout(() => this.#open(), socketLimits.reconnectRetryMs);
      }
    };
    this.#connectTimer = setTimeout(() => {
      this.#timedOut += 1;
      this.#open();
    }, connectTimeoutMs(this.#timedOut));
  }

  /** Forgets the current socket without reacting to its close. */
  #drop(): void {
    clearTimeout(this.#connectTimer);
    clearTimeout(this.#retryTimer);
    const socket = this.#socket;
    if (!socket) return;
    this.#socket = null;
    this.#detach(socket);
    socket.close(1000);
  }

  #detach(socket: WebSocketLike): void {
    socket.onopen = null;
    socket.onmessage = null;
    socket.onerror = null;
    socket.onclose = null;
  }

  #authenticate(): void {
    if (this.#token) this.send('auth', this.#token);
  }

  /**
   * Asks for the next token at half the current one's life, well before the daemon's `token expiring` a minute
   * ahead: on a busy panel the fetch can take seconds, and the socket keeps using the old token until the new one
   * is there, so no line is missed across the change.
   */
  #scheduleRefresh(): void {
    clearTimeout(this.#refreshTimer);
    const lifetime = tokenLifetime(this.#token);
    if (lifetime === null || this.#closed) return;
    // Counted from now, when the token arrived: half its life is left however far off the browser's clock is.
    const delay = Math.max(1_000, (lifetime * 1000) / 2);
    this.#refreshTimer = setTimeout(() => void this.#refreshToken(), delay);
  }

  async #refreshToken(): Promise<void> {
    // Expiring, expired and a jwt error can arrive together: one fetch serves them all.
    if (this.#refreshing) return;
    this.#refreshing = true;
    clearTimeout(this.#refreshTimer);
    try {
      const { token } = await this.#fetchCredentials();
      if (this.#closed) return;
      this.#token = token;
      this.#refreshRetryMs = REFRESH_RETRY_FIRST_MS;
      this.#scheduleRefresh();
      this.#authenticate();
    } catch (error) {
      if (this.#closed) return;
      // Said once per run of failures, not at every retry.
      if (this.#refreshRetryMs === REFRESH_RETRY_FIRST_MS) this.#onFailure(error);
      // A panel shedding load (503) or slow to answer: try again, more slowly each time, while the old token works.
      this.#refreshTimer = setTimeout(() => void this.#refreshToken(), this.#refreshRetryMs);
      this.#refreshRetryMs = Math.min(this.#refreshRetryMs * 2, REFRESH_RETRY_MAX_MS);
    } finally {
      this.#refreshing = false;
    }
  }

  #receive(data: unknown): void {
    const message = typeof data === 'string' ? parseSocketMessage(data) : null;
    if (!message) return;
    const args = message.args ?? [];
    switch (message.event) {
      case DaemonEvent.authSuccess:
        this.#setState({ connected: true, problem: null });
        break;
      case DaemonEvent.tokenExpiring:
      case DaemonEvent.tokenExpired:
        void this.#refreshToken();
        break;
      case DaemonEvent.jwtError:
        if (isRefreshableJwtError(args[0] ?? '')) {
          this.#setState({ ...this.#state, connected: false });
          void this.#refreshToken();
        } else {
          this.#setState({ connected: false, problem: 'credentials' });
        }
        break;
      case DaemonEvent.transferStatus:
        // The server moves to another node: its logs come from there, so connect there.
        if (args[0] !== 'starting' && args[0] !== 'success') void this.rebuild();
        break;
    }
    for (const listener of this.#listeners.get(message.event) ?? []) listener(...args);
  }

  #setState(next: ConnectionState): void {
    if (next.connected === this.#state.connected && next.problem === this.#state.problem) return;
    this.#state = next;
    for (const listener of this.#stateListeners) listener(next);
  }
}

import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { isIPv6, Socket } from 'node:net';
import type { ConnectionLimits } from './connection-limits';

/*
 * Node-only (node:http, node:net): the panel and the daemon bound their HTTP connections with this one module.
 * The web app never imports `net/`.
 */

/**
 * Fastify's server options that must be given at creation: the header time-out, checked often enough that a
 * half-sent request goes close to its time-out rather than up to 30 s (Node's default check interval) later, and no
 * total request time-out (an upload is bounded by idle time instead, see `guardConnections`).
 */
export function connectionServerOptions(limits: ConnectionLimits) {
  return {
    http: {
      headersTimeout: limits.headersTimeoutMs,
      connectionsCheckingInterval: Math.min(1000, Math.max(50, Math.floor(limits.headersTimeoutMs / 4))),
      requestTimeout: 0,
    },
    requestTimeout: 0,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    // A socket idle time-out for the whole connection would cut long handlers and websockets: none here.
    connectionTimeout: 0,
  };
}

/**
 * Whom a connection counts against: its IPv4 address, or the /64 of an IPv6 one (one customer's line gets a whole
 * /64, so counting single IPv6 addresses would not bound anybody).
 */
export function addressKey(remoteAddress: string | undefined): string {
  if (remoteAddress === undefined) return '';
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(remoteAddress);
  if (mapped?.[1]) return mapped[1];
  if (!isIPv6(remoteAddress)) return remoteAddress;
  const [head = '', tail = ''] = remoteAddress.split('%')[0]?.split('::') ?? [];
  const left = head === '' ? [] : head.split(':');
  const right = tail === '' ? [] : tail.split(':');
  const groups = remoteAddress.includes('::')
    ? [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right]
    : left;
  return `${groups
    .slice(0, 4)
    .map((group) => group.toLowerCase().replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}

interface Tracked {
  socket: Socket;
  guard: ConnectionGuard;
  key: string;
  /** A request on it authenticated (see `proveConnection`): never closed to make room. */
  proven: boolean;
  /** A request is being answered on it. */
  busy: boolean;
  open: boolean;
}

/** The connections each guard counts, found from a request's socket. */
const trackedSockets = new WeakMap<Socket, Tracked>();

/**
 * Connections that never proved themselves, in the order they were last active: the longest-idle goes first (a
 * half-sent request, a kept-alive connection nobody uses), then the longest-busy (a response its client does not
 * read). A real client is active a moment after it connects, so it stays at the young end.
 */
class UnprovenPool {
  readonly #idle = new Set<Tracked>();
  readonly #busy = new Set<Tracked>();

  get size(): number {
    return this.#idle.size + this.#busy.size;
  }

  /** Moves the connection to the young end of its list (a Set keeps insertion order). */
  touch(connection: Tracked): void {
    this.remove(connection);
    (connection.busy ? this.#busy : this.#idle).add(connection);
  }

  remove(connection: Tracked): void {
    this.#idle.delete(connection);
    this.#busy.delete(connection);
  }

  oldest(): Tracked | undefined {
    for (const connection of this.#idle) return connection;
    for (const connection of this.#busy) return connection;
    return undefined;
  }
}

interface AddressCount {
  open: number;
  unproven: UnprovenPool;
}

/**
 * Counts one server's connections, in all and per address, and makes room when a count is full: the new
 * connection closes the longest-unused connection that never proved itself, rather than being refused. Proven
 * connections (a node token, a signed URL, a console `auth`, a session or API key: see `proveConnection`) are never
 * closed to make room. So a flood of connections that send nothing, from one address or from thousands, holds at
 * most the ceiling and cannot keep out a real request, which proves itself, or at least is answered, a moment
 * after it connects; only when every connection is proven is the newest refused.
 */
export class ConnectionGuard {
  readonly #limits: Pick<ConnectionLimits, 'maxPerAddress' | 'maxConnections'>;
  readonly #unproven = new UnprovenPool();
  readonly #addresses = new Map<string, AddressCount>();
  #open = 0;
  #proven = 0;
  #closedForRoom = 0;

  constructor(limits: Pick<ConnectionLimits, 'maxPerAddress' | 'maxConnections'>) {
    this.#limits = limits;
  }

  /** Counts the server's connections from now on. */
  attach(server: Server): this {
    server.on('connection', (socket: Socket) => this.#admit(socket));
    server.on('request', (request: IncomingMessage, response: ServerResponse) =>
      this.#onRequest(request, response),
    );
    return this;
  }

  /** Open connections, how many proved themselves, and how many were closed to make room so far. */
  counts(): { open: number; proven: number; closedForRoom: number } {
    return { open: this.#open, proven: this.#proven, closedForRoom: this.#closedForRoom };
  }

  /** Takes the connection out of the pools that make room: see `proveConnection`. */
  prove(socket: Socket): void {
    const connection = trackedSockets.get(socket);
    if (!connection || connection.guard !== this || !connection.open || connection.proven) return;
    connection.proven = true;
    this.#proven += 1;
    this.#unproven.remove(connection);
    this.#addresses.get(connection.key)?.unproven.remove(connection);
  }

  #admit(socket: Socket): void {
    const key = addressKey(socket.remoteAddress);
    const address = this.#addresses.get(key) ?? { open: 0, unproven: new UnprovenPool() };
    if (address.open >= this.#limits.maxPerAddress && !this.#makeRoom(address.unproven)) {
      socket.destroy();
      return;
    }
    if (this.#open >= this.#limits.maxConnections && !this.#makeRoom(this.#unproven)) {
      socket.destroy();
      return;
    }
    const connection: Tracked = { socket, guard: this, key, proven: false, busy: false, open: true };
    trackedSockets.set(socket, connection);
    this.#open += 1;
    address.open += 1;
    this.#addresses.set(key, address);
    this.#unproven.touch(connection);
    address.unproven.touch(connection);
    socket.once('close', () => this.#release(connection));
  }

  #onRequest(request: IncomingMessage, response: ServerResponse): void {
    const connection = trackedSockets.get(request.socket);
    if (!connection || connection.proven) return;
    this.#setBusy(connection, true);
    response.once('close', () => this.#setBusy(connection, false));
  }

  #setBusy(connection: Tracked, busy: boolean): void {
    connection.busy = busy;
    if (!connection.open || connection.proven) return;
    this.#unproven.touch(connection);
    this.#addresses.get(connection.key)?.unproven.touch(connection);
  }

  /** Closes the longest-unused unproven connection of `pool`; false when there is none. */
  #makeRoom(pool: UnprovenPool): boolean {
    const victim = pool.oldest();
    if (!victim) return false;
    // Counted out at once: its 'close' event comes a tick later, after the new connection is admitted.
    this.#release(victim);
    victim.socket.destroy();
    this.#closedForRoom += 1;
    return true;
  }

  #release(connection: Tracked): void {
    if (!connection.open) return;
    connection.open = false;
    this.#open -= 1;
    if (connection.proven) this.#proven -= 1;
    this.#unproven.remove(connection);
    const address = this.#addresses.get(connection.key);
    if (!address) return;
    address.unproven.remove(connection);
    address.open -= 1;
    if (address.open <= 0) this.#addresses.delete(connection.key);
  }
}

/**
 * Marks the connection a request came on as proven: it authenticated (node token, signed URL, console `auth`,
 * session, API key), so it no longer counts among those a new connection may close to make room. A socket no
 * guard counts is left alone.
 */
export function proveConnection(socket: Socket | null | undefined): void {
  if (!socket) return;
  trackedSockets.get(socket)?.guard.prove(socket);
}

/** Sets the socket's idle time-out (0: none); `inject()`'s stand-in socket, which is no TCP socket, has none. */
function idleTimeout(socket: Socket | null | undefined, ms: number): void {
  if (socket instanceof Socket) socket.setTimeout(ms);
}

/** True when a body follows the headers. */
function expectsBody(request: IncomingMessage): boolean {
  const length = request.headers['content-length'];
  return request.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/** What the hooks need of Fastify's request and reply. */
interface RawRequest {
  raw: IncomingMessage;
}
interface RawReply {
  raw: ServerResponse;
}

/** The part of a Fastify app the guard uses, stated here so this package needs no Fastify. */
export interface GuardedApp {
  server: Server;
  addHook(name: 'onRequest', hook: (request: RawRequest, reply: RawReply) => Promise<void>): unknown;
  addHook(
    name: 'onSend',
    hook: (request: RawRequest, reply: RawReply, payload: unknown) => Promise<unknown>,
  ): unknown;
}

/**
 * Bounds the app's HTTP server: connections per address and in all (`ConnectionGuard`), and the idle time-out
 * while a request body arrives or a response leaves. Call it before any route is registered. Together with
 * `connectionServerOptions` (header and keep-alive time-outs), a client that opens connections and sends little or
 * nothing holds them only briefly, at most `maxPerAddress` of them, and never keeps a real request out.
 */
export function guardConnections(app: GuardedApp, limits: ConnectionLimits): ConnectionGuard {
  const guard = new ConnectionGuard(limits).attach(app.server);

  // A body arriving: closed after idleTimeoutMs without a byte; once it has all arrived the handler's time is
  // its own (Node's socket time-out destroys the connection when nobody listens for it).
  app.addHook('onRequest', async (request, reply) => {
    const raw = request.raw;
    if (!expectsBody(raw)) return;
    idleTimeout(raw.socket, limits.idleTimeoutMs);
    raw.once('end', () => {
      // A body read only after the answer (a refusal) ends under Node's keep-alive time-out: leave that one.
      if (!reply.raw.writableFinished) idleTimeout(raw.socket, 0);
    });
  });
  // A response leaving: a client that stops reading is let go. Node replaces this with its keep-alive time-out
  // once the response is finished.
  app.addHook('onSend', async (request, _reply, payload) => {
    idleTimeout(request.raw.socket, limits.idleTimeoutMs);
    return payload;
  });
  return guard;
}

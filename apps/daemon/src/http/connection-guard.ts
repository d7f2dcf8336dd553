import type { IncomingMessage } from 'node:http';
import { isIPv6, type Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { ConnectionLimits } from './connection-limits';

/**
 * The Node HTTP server options that must be given at creation: the header time-out, checked often enough that a
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

/** True when a body follows the headers. */
function expectsBody(request: IncomingMessage): boolean {
  const length = request.headers['content-length'];
  return request.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/**
 * Bounds the app's HTTP server: a server-wide connection ceiling, a per-address cap checked as each connection is
 * accepted (over it, destroyed at once), and the idle time-out while a request body arrives or a response leaves.
 * Call it before any route is registered. Together with `connectionServerOptions` (header and keep-alive
 * time-outs), a client that opens connections and sends little or nothing holds them only briefly, and at most
 * `maxPerAddress` of them.
 */
export function guardConnections(app: FastifyInstance, limits: ConnectionLimits): void {
  const server = app.server;
  server.maxConnections = limits.maxConnections;
  const open = new Map<string, number>();
  server.on('connection', (socket: Socket) => {
    const key = addressKey(socket.remoteAddress);
    const count = open.get(key) ?? 0;
    if (count >= limits.maxPerAddress) {
      socket.destroy();
      return;
    }
    open.set(key, count + 1);
    socket.once('close', () => {
      const left = (open.get(key) ?? 1) - 1;
      if (left <= 0) open.delete(key);
      else open.set(key, left);
    });
  });

  // A body arriving: closed after idleTimeoutMs without a byte; once it has all arrived the handler's time is
  // its own (Node's socket time-out destroys the connection when nobody listens for it).
  app.addHook('onRequest', async (request, reply) => {
    const raw = request.raw;
    if (!expectsBody(raw)) return;
    raw.socket.setTimeout(limits.idleTimeoutMs);
    raw.once('end', () => {
      // A body read only after the answer (a refusal) ends under Node's keep-alive time-out: leave that one.
      if (!reply.raw.writableFinished) raw.socket?.setTimeout(0);
    });
  });
  // A response leaving: a client that stops reading is let go. Node replaces this with its keep-alive time-out
  // once the response is finished.
  app.addHook('onSend', async (request, _reply, payload) => {
    request.raw.socket?.setTimeout(limits.idleTimeoutMs);
    return payload;
  });
}

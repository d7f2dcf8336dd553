import fastifyWebsocket from '@fastify/websocket';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { JwtDenylist } from '../auth/jwt-denylist';
import type { ConsoleServer } from '../server/console-server';
import { ConnectionRegistry, type ConnectionSlot } from './connection-registry';
import { ConsoleSocket } from './console-socket';
import { isAllowedOrigin } from './origin';
import { type ConsoleWebsocketLimits, DEFAULT_WEBSOCKET_LIMITS } from './websocket-limits';

export interface ConsoleWebsocketOptions {
  getServer(uuid: string): ConsoleServer | undefined;
  /** The node token: the key of the panel's JWTs. */
  nodeToken: string;
  /** PANEL_URL: the Origin the panel's console page sends. */
  panelUrl: string;
  /** DAEMON_ALLOWED_ORIGINS: further origins (`*` = any). */
  allowedOrigins?: readonly string[];
  /** Shared with the `/ws/deny` route; it also holds the daemon's boot time. */
  denylist: JwtDenylist;
  limits?: Partial<ConsoleWebsocketLimits>;
  /** The open sockets; pass one to look at them from outside (tests, daemon status). */
  connections?: ConnectionRegistry<ConsoleSocket>;
}

export const REFUSALS = {
  origin: 'This origin may not open a console connection to this daemon.',
  notFound: 'The requested resource does not exist on this instance.',
  server: 'Too many console connections to this server; close one and try again.',
  ip: 'Too many console connections from this address; close one and try again.',
} as const;

interface ServerParams {
  server: string;
}

/**
 * `GET /api/servers/:server/ws`: the console websocket. Refused before the upgrade when the Origin is not the
 * panel's (403), the server is unknown (404) or a connection cap is reached (429); after it, the socket speaks
 * Wings' protocol (ConsoleSocket). Registers @fastify/websocket itself, inside its own scope.
 */
export const consoleWebsocket: FastifyPluginAsync<ConsoleWebsocketOptions> = async (app, options) => {
  const limits: ConsoleWebsocketLimits = { ...DEFAULT_WEBSOCKET_LIMITS, ...options.limits };
  const connections = options.connections ?? new ConnectionRegistry<ConsoleSocket>(limits);
  const slots = new WeakMap<FastifyRequest, ConnectionSlot<ConsoleSocket>>();

  await app.register(fastifyWebsocket, {
    options: { maxPayload: limits.maxFrameBytes },
    // ws already closed the socket with the right code (1009 for an oversize frame): log, don't cut it short.
    errorHandler: (error) => app.log.debug({ err: error }, 'console websocket error'),
  });

  app.get<{ Params: ServerParams }>(
    '/api/servers/:server/ws',
    {
      websocket: true,
      preHandler: async (request, reply) => {
        if (!isAllowedOrigin(request.headers.origin, options.panelUrl, options.allowedOrigins)) {
          return reply.code(403).send({ error: REFUSALS.origin });
        }
        if (!options.getServer(request.params.server)) {
          return reply.code(404).send({ error: REFUSALS.notFound });
        }
        const slot = connections.reserve(request.params.server, request.ip);
        if (typeof slot === 'string') return reply.code(429).send({ error: REFUSALS[slot] });
        // The TCP connection ending frees the slot, also when the upgrade itself never completes.
        request.raw.socket.once('close', slot.release);
        slots.set(request, slot);
      },
    },
    (ws, request) => {
      const server = options.getServer(request.params.server);
      if (!server) return ws.close(1011, 'server gone');
      const socket = new ConsoleSocket({
        ws,
        server,
        nodeToken: options.nodeToken,
        denylist: options.denylist,
        limits,
        log: request.log,
      });
      slots.get(request)?.attach(socket);
    },
  );
};

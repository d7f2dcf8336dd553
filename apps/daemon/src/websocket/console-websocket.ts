import type { JwtDenylist } from '@aerie/daemon/auth/jwt-denylist';
import { addressKey, proveConnection } from '@aerie/daemon/http-kit/connection-guard';
import type { ConsoleServer } from '@aerie/daemon/server/console-server';
import fastifyWebsocket from '@fastify/websocket';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { ConnectionRegistry, type ConnectionSlot } from './connection-registry';
import { ConsoleHub } from './console-hub';
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
  pending: 'Too many console connections from this address are waiting to authenticate; try again shortly.',
} as const;

interface ServerParams {
  server: string;
}

/** What a connection being upgraded holds: its place, and the socket once the upgrade is through. */
interface Upgrade {
  slot: ConnectionSlot<ConsoleSocket>;
  socket: ConsoleSocket | undefined;
}

/**
 * `GET /api/servers/:server/ws`: the console websocket. Refused before the upgrade when the Origin is not the
 * panel's (403), the server is unknown (404) or the client address already has its allowance of sockets waiting
 * to authenticate (429); after it, the socket speaks Wings' protocol (ConsoleSocket). It starts in that allowance
 * and takes one of the server's console places at its first valid `auth` (see ConnectionRegistry), which also
 * proves its TCP connection to the HTTP guard. Registers @fastify/websocket itself, inside its own scope.
 */
export const consoleWebsocket: FastifyPluginAsync<ConsoleWebsocketOptions> = async (app, options) => {
  const limits: ConsoleWebsocketLimits = { ...DEFAULT_WEBSOCKET_LIMITS, ...options.limits };
  const connections = options.connections ?? new ConnectionRegistry<ConsoleSocket>(limits);
  const upgrades = new WeakMap<FastifyRequest, Upgrade>();
  const hub = new ConsoleHub(app.log);

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
        const raw = request.raw.socket;
        const slot = connections.reserve(request.params.server, addressKey(request.ip));
        if (!slot) return reply.code(429).send({ error: REFUSALS.pending });
        // The TCP connection ending frees the slot, also when the upgrade itself never completes.
        raw.once('close', slot.release);
        upgrades.set(request, {
          socket: undefined,
          slot: {
            ...slot,
            authenticate: (identity) => {
              const refusal = slot.authenticate(identity);
              // A console place: the HTTP guard never closes this connection to make room.
              if (!refusal) proveConnection(raw);
              return refusal;
            },
          },
        });
      },
    },
    (ws, request) => {
      const server = options.getServer(request.params.server);
      const upgrade = upgrades.get(request);
      if (!server || !upgrade) return ws.close(1011, 'server gone');
      const socket = new ConsoleSocket({
        ws,
        server,
        hub,
        nodeToken: options.nodeToken,
        denylist: options.denylist,
        limits,
        log: request.log,
        slot: upgrade.slot,
      });
      upgrade.socket = socket;
      upgrade.slot.attach(socket);
    },
  );
};

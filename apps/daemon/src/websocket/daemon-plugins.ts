import { JwtDenylist } from '@aerie/daemon/auth/jwt-denylist';
import type { DaemonAppOptions } from '@aerie/daemon/http/app';
import { ConnectionRegistry } from './connection-registry';
import type { ConsoleSocket } from './console-socket';
import { consoleWebsocket } from './console-websocket';
import { websocketDenyRoute } from './deny-route';
import { type ConsoleWebsocketLimits, DEFAULT_WEBSOCKET_LIMITS } from './websocket-limits';

export type ConsoleWebsocketPlugins = Required<
  Pick<DaemonAppOptions, 'registerWebsocket' | 'registerProtected'>
> & {
  /** The denylist both routes share (and the signed file URLs); its boot time is when this was called. */
  denylist: JwtDenylist;
  /** The open console sockets. */
  connections: ConnectionRegistry<ConsoleSocket>;
};

/**
 * The console websocket and the deny routes as the daemon app's two hooks: `buildDaemonApp({ …,
 * ...consoleWebsocketPlugins() })`. Call it once at daemon start: tokens issued before that are refused.
 */
export function consoleWebsocketPlugins(
  options: { denylist?: JwtDenylist; limits?: Partial<ConsoleWebsocketLimits> } = {},
): ConsoleWebsocketPlugins {
  const denylist = options.denylist ?? new JwtDenylist();
  const limits: ConsoleWebsocketLimits = { ...DEFAULT_WEBSOCKET_LIMITS, ...options.limits };
  const connections = new ConnectionRegistry<ConsoleSocket>(limits);
  return {
    denylist,
    connections,
    registerWebsocket: async (app, manager, config) => {
      await app.register(consoleWebsocket, {
        getServer: (uuid) => manager.get(uuid),
        nodeToken: config.token,
        panelUrl: config.panelUrl,
        allowedOrigins: config.allowedOrigins,
        denylist,
        limits,
        connections,
      });
    },
    registerProtected: async (scope, manager) => {
      await scope.register(websocketDenyRoute, {
        denylist,
        serverExists: (uuid) => manager.get(uuid) !== undefined,
        onDenied: revalidateSockets(connections),
      });
    },
  };
}

/**
 * What a deny does to open sockets: each socket of that server (or of every server) looks at its token again, and
 * those holding a now-denied one are closed before the panel hears 204.
 */
export function revalidateSockets(connections: ConnectionRegistry<ConsoleSocket>) {
  return (server: string | undefined): void => {
    const sockets = server === undefined ? connections.everySocket() : connections.socketsOf(server);
    for (const socket of sockets) socket.revalidate();
  };
}

import { JwtDenylist } from '../auth/jwt-denylist';
import type { DaemonAppOptions } from '../http/app';
import { consoleWebsocket } from './console-websocket';
import { websocketDenyRoute } from './deny-route';
import type { ConsoleWebsocketLimits } from './websocket-limits';

export type ConsoleWebsocketPlugins = Required<
  Pick<DaemonAppOptions, 'registerWebsocket' | 'registerProtected'>
> & {
  /** The denylist both routes share; its boot time is when this was called unless one is passed in. */
  denylist: JwtDenylist;
};

/**
 * The console websocket and the `/ws/deny` route as the daemon app's two hooks: `buildDaemonApp({ …,
 * ...consoleWebsocketPlugins() })`. Call it once at daemon start: tokens issued before that are refused.
 */
export function consoleWebsocketPlugins(
  options: { denylist?: JwtDenylist; limits?: Partial<ConsoleWebsocketLimits> } = {},
): ConsoleWebsocketPlugins {
  const denylist = options.denylist ?? new JwtDenylist();
  return {
    denylist,
    registerWebsocket: async (app, manager, config) => {
      await app.register(consoleWebsocket, {
        getServer: (uuid) => manager.get(uuid),
        nodeToken: config.token,
        panelUrl: config.panelUrl,
        allowedOrigins: config.allowedOrigins,
        denylist,
        limits: options.limits,
      });
    },
    registerProtected: async (scope, manager) => {
      await scope.register(websocketDenyRoute, {
        denylist,
        serverExists: (uuid) => manager.get(uuid) !== undefined,
      });
    },
  };
}

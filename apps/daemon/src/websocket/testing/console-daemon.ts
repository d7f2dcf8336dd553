import { JwtDenylist } from '@aerie/daemon/auth/jwt-denylist';
import { TEST_NODE_TOKEN } from '@aerie/daemon/auth/testing/sign-token';
import type { ConsoleServer } from '@aerie/daemon/server/console-server';
import { serverDirectory } from '@aerie/daemon/testing/server-fixtures';
import { ConnectionRegistry } from '@aerie/daemon/websocket/connection-registry';
import type { ConsoleSocket } from '@aerie/daemon/websocket/console-socket';
import { consoleWebsocket } from '@aerie/daemon/websocket/console-websocket';
import { revalidateSockets } from '@aerie/daemon/websocket/daemon-plugins';
import { websocketDenyRoute } from '@aerie/daemon/websocket/deny-route';
import {
  type ConsoleWebsocketLimits,
  DEFAULT_WEBSOCKET_LIMITS,
} from '@aerie/daemon/websocket/websocket-limits';
import Fastify from 'fastify';
import { DemoConsoleServer } from './demo-console-server';
import { PANEL_ORIGIN, type TestSocket } from './test-socket';

export const SERVER_A = '5b1e8c34-2f7a-4c1d-9e3b-7a6d5c4b3a21';
export const SERVER_B = 'c7d9e1f3-4a5b-4c6d-8e7f-9a0b1c2d3e4f';

/**
 * A real daemon HTTP server on a free port with the console websocket and the deny route, and real demo game
 * servers behind it. `close()` ends sockets, processes and directories.
 */
export async function startConsoleDaemon(
  options: {
    limits?: Partial<ConsoleWebsocketLimits>;
    bootTime?: Date;
    allowedOrigins?: string[];
    /** A script to run instead of the demo game (same done line). */
    script?: string;
  } = {},
) {
  const cleanups: Array<() => Promise<void>> = [];
  const servers = new Map<string, DemoConsoleServer>();
  for (const uuid of [SERVER_A, SERVER_B]) {
    const { directory, cleanup } = await serverDirectory();
    const server = new DemoConsoleServer({ uuid, directory, script: options.script });
    servers.set(uuid, server);
    cleanups.push(async () => {
      await server.dispose();
      await cleanup();
    });
  }
  // Tokens are signed in the same second as the test runs: the daemon must have booted before that.
  const denylist = new JwtDenylist({ bootTime: options.bootTime ?? new Date(Date.now() - 60_000) });
  const limits = { ...DEFAULT_WEBSOCKET_LIMITS, ...options.limits };
  const connections = new ConnectionRegistry<ConsoleSocket>(limits);
  const app = Fastify({ logger: false });
  await app.register(consoleWebsocket, {
    getServer: (uuid: string): ConsoleServer | undefined => servers.get(uuid),
    nodeToken: TEST_NODE_TOKEN,
    panelUrl: `${PANEL_ORIGIN}/`,
    allowedOrigins: options.allowedOrigins,
    denylist,
    limits,
    connections,
  });
  await app.register(websocketDenyRoute, { denylist, onDenied: revalidateSockets(connections) });
  const address = await app.listen({ host: '127.0.0.1', port: 0 });
  const sockets: TestSocket[] = [];
  return {
    app,
    address,
    denylist,
    connections,
    server: (uuid: string = SERVER_A) => {
      const server = servers.get(uuid);
      if (!server) throw new Error(`no test server ${uuid}`);
      return server;
    },
    url: (uuid: string = SERVER_A) => `${address.replace('http', 'ws')}/api/servers/${uuid}/ws`,
    /** Sockets opened through `track` are closed by `close()`. */
    track: (socket: TestSocket) => {
      sockets.push(socket);
      return socket;
    },
    close: async () => {
      for (const socket of sockets) socket.ws.terminate();
      await app.close();
      await Promise.all(cleanups.map((cleanup) => cleanup()));
    },
  };
}

export type ConsoleDaemon = Awaited<ReturnType<typeof startConsoleDaemon>>;

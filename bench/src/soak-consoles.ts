import type WebSocket from 'ws';
import { clientAddress, openConsoleSocket } from './console-clients';
import { sessionApiHeaders } from './sign-in';
import type { SoakServer } from './soak-panel';

/** The demo game prints `[Server] <text>` for `say <text>`: every socket of the server should see each one. */
const SAY_MARK = '[Server] soak-';
const MAX_COMMANDS = 16_384;

interface SoakSocket {
  ws: WebSocket;
  server: number;
  session: number;
  /** Which of the server's commands this socket saw the line of. */
  seen: Uint8Array;
  closed: boolean;
}

export interface ConsoleResult {
  sockets: number;
  commands: number;
  /** Lines every open socket should have received: each command times its server's sockets. */
  expected: number;
  delivered: number;
  closedSockets: number;
  tokenRefreshes: number;
  failedRefreshes: number;
  /** `token expired` or `jwt error` seen by a socket: a token that lapsed mid-session. */
  lapsedTokens: number;
}

/**
 * `perServer` console sockets on every server, as browsers hold them: tokens fetched from the panel with the two
 * sessions in turn, sockets from many loopback addresses, a fresh token sent when the daemon says `token expiring`.
 * Commands go through the first socket of each server; delivery is counted per socket and command.
 */
export async function openSoakConsoles(options: {
  url: string;
  sessions: readonly string[];
  servers: readonly SoakServer[];
  perServer: number;
}) {
  const { url, sessions, servers, perServer } = options;
  const sockets: SoakSocket[] = [];
  let tokenRefreshes = 0;
  let failedRefreshes = 0;
  let lapsedTokens = 0;
  const commandsSent = servers.map(() => 0);

  const credentials = async (server: number, session: number) => {
    const identifier = servers[server]?.identifier ?? '';
    const response = await fetch(`${url}/api/client/servers/${identifier}/websocket`, {
      headers: sessionApiHeaders(sessions[session] ?? ''),
      signal: AbortSignal.timeout(15_000),
    });
    if (!response.ok) throw new Error(`websocket credentials: ${response.status}`);
    return ((await response.json()) as { data: { token: string; socket: string } }).data;
  };

  const onText = (socket: SoakSocket, text: string) => {
    const mark = text.indexOf(SAY_MARK);
    if (mark !== -1) {
      const index = Number.parseInt(text.slice(mark + SAY_MARK.length), 10);
      if (index >= 0 && index < MAX_COMMANDS) socket.seen[index] = 1;
      return;
    }
    if (text.includes('"token expiring"')) {
      credentials(socket.server, socket.session)
        .then(({ token }) => {
          tokenRefreshes += 1;
          socket.ws.send(JSON.stringify({ event: 'auth', args: [token] }));
        })
        .catch(() => {
          failedRefreshes += 1;
        });
    } else if (text.includes('"token expired"') || text.includes('"jwt error"')) lapsedTokens += 1;
  };

  const open = async (index: number) => {
    const server = Math.floor(index / perServer);
    const session = index % sessions.length;
    const { token, socket: address } = await credentials(server, session);
    const socket: SoakSocket = {
      ws: undefined as unknown as WebSocket,
      server,
      session,
      seen: new Uint8Array(MAX_COMMANDS),
      closed: false,
    };
    socket.ws = await openConsoleSocket(address, url, token, {
      localAddress: clientAddress(index),
      listen: (text) => onText(socket, text),
    });
    socket.ws.on('close', () => {
      socket.closed = true;
    });
    sockets.push(socket);
  };

  // Four at a time: ten sockets in a row share an address, and the daemon holds each address to 5 sockets still
  // authenticating.
  let next = 0;
  const total = servers.length * perServer;
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      for (let index = next++; index < total; index = next++) await open(index);
    }),
  );
  const senders = servers.map((_, server) => sockets.find((socket) => socket.server === server));

  return {
    /** One `say` on every server, through its first socket. */
    sendCommands() {
      for (const [server, sender] of senders.entries()) {
        const index = commandsSent[server] ?? 0;
        if (!sender || sender.closed || index >= MAX_COMMANDS) continue;
        sender.ws.send(JSON.stringify({ event: 'send command', args: [`say soak-${index}`] }));
        commandsSent[server] = index + 1;
      }
    },
    result(): ConsoleResult {
      let delivered = 0;
      for (const socket of sockets) {
        const sent = commandsSent[socket.server] ?? 0;
        for (let index = 0; index < sent; index++) delivered += socket.seen[index] ?? 0;
      }
      const commands = commandsSent.reduce((sum, count) => sum + count, 0);
      return {
        sockets: sockets.length,
        commands,
        expected: commands * perServer,
        delivered,
        closedSockets: sockets.filter((socket) => socket.closed).length,
        tokenRefreshes,
        failedRefreshes,
        lapsedTokens,
      };
    },
    /** Starts a new count (between rates). */
    reset() {
      for (const socket of sockets) socket.seen.fill(0);
      commandsSent.fill(0);
      tokenRefreshes = 0;
      failedRefreshes = 0;
      lapsedTokens = 0;
    },
    close() {
      for (const socket of sockets) socket.ws.terminate();
    },
  };
}

import { createServer, type Server, Socket } from 'node:net';
import { networkInterfaces } from 'node:os';

/**
 * The game of the network tests, hostile on purpose: it runs `setup` (more of its own), then tries each probe of
 * PROBES (`name:host:port`, reported `probe <name> ok|blocked`), binds SERVER_PORT and EXTRA_PORTS (`bind <port>
 * ok|<code>`), answers players with its NAME, and says `ready on <SERVER_IP>`.
 */
export const hostileGame = (setup = '') => `
import { createServer, connect } from 'node:net';
const probe = (name, host, port) => new Promise((done) => {
  const socket = connect({ host, port, timeout: 1500 });
  const end = (result) => { socket.destroy(); console.log('probe ' + name + ' ' + result); done(); };
  socket.once('connect', () => end('ok'));
  socket.once('timeout', () => end('blocked'));
  socket.once('error', () => end('blocked'));
});
${setup}
for (const entry of (process.env.PROBES ?? '').split(',').filter(Boolean)) {
  const [name, host, port] = entry.split(':');
  await probe(name, host, Number(port));
}
const ports = [process.env.SERVER_PORT, ...(process.env.EXTRA_PORTS ?? '').split(',')].filter(Boolean);
for (const port of ports) {
  await new Promise((done) => {
    const server = createServer((socket) => socket.end('game ' + process.env.NAME + '\\n'));
    server.once('error', (error) => { console.log('bind ' + port + ' ' + error.code); done(); });
    server.listen(Number(port), process.env.SERVER_IP, () => { console.log('bind ' + port + ' ok'); done(); });
  });
}
console.log('ready on ' + process.env.SERVER_IP);
setInterval(() => {}, 1000);
`;

/** A service on the host that a game must never reach (it answers whoever does); its port. */
export async function hostService(listeners: Server[], host: string): Promise<number> {
  const server = createServer((socket) => {
    // A probe drops the connection as soon as it is made.
    socket.on('error', () => {});
    socket.end('host service\n');
  });
  listeners.push(server);
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  return (server.address() as { port: number }).port;
}

/** What a player on the node gets from host:port: the first line, or 'nothing'. */
export function play(host: string, port: number): Promise<string> {
  return new Promise((resolve) => {
    const socket = new Socket();
    let text = '';
    const done = (result: string) => {
      socket.destroy();
      resolve(result);
    };
    socket.setTimeout(3000, () => done('nothing'));
    socket.on('data', (chunk) => {
      text += chunk.toString();
      if (text.includes('\n')) done(text.trim());
    });
    socket.on('error', () => done('nothing'));
    socket.connect(port, host);
  });
}

/** The node's first IPv4 address that is not loopback, nor a test's or a game's own link (`skip` prefixes). */
export function hostAddress(skip: readonly string[]): string | undefined {
  for (const [name, addresses] of Object.entries(networkInterfaces())) {
    if (skip.some((prefix) => name.startsWith(prefix))) continue;
    const found = addresses?.find((address) => address.family === 'IPv4' && !address.internal);
    if (found) return found.address;
  }
  return undefined;
}

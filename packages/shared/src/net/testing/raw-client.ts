import net from 'node:net';

/** A raw TCP client of a guarded server's tests: what came back, and when the server closed it. */
export interface RawClient {
  socket: net.Socket;
  received: () => string;
  /** Milliseconds from connecting to the close. */
  closed: Promise<number>;
  isOpen: () => boolean;
}

/**
 * Connects to 127.0.0.1:port (from `localAddress`, to stand for another client address) and optionally sends
 * something, e.g. half a request. The socket joins `opened`, which the test destroys when it ends.
 */
export function rawClient(
  opened: net.Socket[],
  port: number,
  options: { localAddress?: string; send?: string } = {},
): Promise<RawClient> {
  const socket = net.connect({ host: '127.0.0.1', port, localAddress: options.localAddress });
  opened.push(socket);
  const startedAt = Date.now();
  let received = '';
  let open = true;
  socket.on('data', (chunk) => {
    received += chunk.toString();
  });
  socket.on('error', () => {});
  const closed = new Promise<number>((resolve) =>
    socket.once('close', () => {
      open = false;
      resolve(Date.now() - startedAt);
    }),
  );
  return new Promise((resolve, reject) => {
    socket.once('connect', () => {
      if (options.send !== undefined) socket.write(options.send);
      resolve({ socket, received: () => received, closed, isOpen: () => open });
    });
    socket.once('error', reject);
  });
}

/** `count` connections sending `halfRequest` from each of 127.0.0.`first`…127.0.0.`last`, one address after another. */
export async function floodOfHalfRequests(
  opened: net.Socket[],
  port: number,
  addresses: { first: number; last: number; count: number },
  halfRequest: string,
): Promise<RawClient[]> {
  const held: RawClient[] = [];
  for (let address = addresses.first; address <= addresses.last; address += 1) {
    const batch = await Promise.all(
      Array.from({ length: addresses.count }, () =>
        rawClient(opened, port, { localAddress: `127.0.0.${address}`, send: halfRequest }),
      ),
    );
    held.push(...batch);
  }
  return held;
}

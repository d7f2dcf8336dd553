import type { AddressInfo } from 'node:net';
import { createServer } from 'node:net';

/** A local port nothing listens on (bound, then released): a daemon that cannot be reached. */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * `count` distinct local ports nothing listens on: all are bound before any is released, so the system cannot hand
 * the same one out twice (a node's daemon, SFTP and game ports drawn one by one once collided, and a game answered
 * on the daemon's port).
 */
export async function closedPorts(count: number): Promise<number[]> {
  const servers = Array.from({ length: count }, () => createServer());
  await Promise.all(
    servers.map((server) => new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))),
  );
  const ports = servers.map((server) => (server.address() as AddressInfo).port);
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  return ports;
}

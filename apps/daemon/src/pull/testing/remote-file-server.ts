import { once } from 'node:events';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type RemoteHandler = (request: IncomingMessage, response: ServerResponse) => void;

export interface RemoteFileServer {
  /** `http://<host>:<port>`. */
  origin: string;
  port: number;
  /** Every path asked for, in order (a refused pull must leave this empty). */
  requests: string[];
  /** Answers `path` (without query) with `handler` from now on. */
  route(path: string, handler: RemoteHandler): void;
  close(): Promise<void>;
}

/** A real HTTP server on `host` (e.g. 127.0.0.2) serving what each test routes; 404 for anything else. */
export async function startRemoteFileServer(host: string): Promise<RemoteFileServer> {
  const routes = new Map<string, RemoteHandler>();
  const requests: string[] = [];
  const server = http.createServer((request, response) => {
    requests.push(request.url ?? '');
    const handler = routes.get(new URL(request.url ?? '/', 'http://x').pathname);
    if (handler) handler(request, response);
    else response.writeHead(404).end('not here');
  });
  server.listen(0, host);
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    port,
    requests,
    route: (path, handler) => routes.set(path, handler),
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** Sends `bytes` with their Content-Length, or chunked without one. */
export const serveBytes =
  (bytes: Buffer, options: { length?: boolean; headers?: Record<string, string> } = {}): RemoteHandler =>
  (_request, response) => {
    response.writeHead(200, {
      'content-type': 'application/octet-stream',
      ...(options.length === false ? {} : { 'content-length': String(bytes.length) }),
      ...options.headers,
    });
    response.end(bytes);
  };

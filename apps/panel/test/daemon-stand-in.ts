import type { IncomingHttpHeaders } from 'node:http';
import { Readable } from 'node:stream';
import Fastify from 'fastify';

export interface DaemonCall {
  method: string;
  url: string;
  /** The url without its query string. */
  path: string;
  /** The query string, decoded (the last value of a repeated key). */
  query: Record<string, string>;
  headers: IncomingHttpHeaders;
  /** Parsed JSON for a JSON body; the raw bytes (a Buffer) for any other content type. */
  body: unknown;
}

/**
 * What the stand-in answers. A Buffer, string or stream `body` is sent as it is (with `headers`, e.g. a
 * Content-Length announcing more than the stream ever sends); anything else as JSON.
 */
export type DaemonAnswer = { status: number; body?: unknown; headers?: Record<string, string> } | 'hang-up';

/** Bodies the stand-in accepts whole (a write may carry 100 MiB). */
const BODY_LIMIT = 128 * 1024 * 1024;

/**
 * A stand-in for a node's daemon on a real socket (port 0 unless given): records every request it gets, and answers each
 * with what `answer` decides (204 by default, Wings' answer to most calls). Its token check is Wings': the
 * `Bearer <token>` alone, 401 without it, 403 when it differs. `wingsFileAnswers` gives Wings' answers to the
 * files routes.
 */
export async function startDaemonStandIn(options: {
  token: string;
  answer?: (call: DaemonCall) => DaemonAnswer | undefined | Promise<DaemonAnswer | undefined>;
  /** A fixed port (default: any free one). */
  port?: number;
}) {
  const calls: DaemonCall[] = [];
  const app = Fastify({ logger: false, bodyLimit: BODY_LIMIT });
  // A file write's body is raw bytes of whatever type: kept as they arrived.
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    try {
      done(null, body === '' ? undefined : JSON.parse(String(body)));
    } catch (error) {
      done(error as Error, undefined);
    }
  });
  app.all('/*', async (request, reply) => {
    const url = new URL(request.url, 'http://daemon');
    const call: DaemonCall = {
      method: request.method,
      url: request.url,
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      headers: request.headers,
      body: request.body,
    };
    calls.push(call);
    const header = request.headers.authorization;
    if (!header?.startsWith('Bearer ')) {
      return reply
        .status(401)
        .header('www-authenticate', 'Bearer')
        .send({ error: 'The required authorization heads were not present in the request.' });
    }
    if (header !== `Bearer ${options.token}`) {
      return reply.status(403).send({ error: 'You are not authorized to access this endpoint.' });
    }
    const answer = (await options.answer?.(call)) ?? { status: 204 };
    if (answer === 'hang-up') {
      request.raw.socket.destroy();
      return reply;
    }
    if (answer.body instanceof Readable) {
      // Headers go out at once, as a daemon's would, even when the stream never sends a byte.
      reply.hijack();
      reply.raw.writeHead(answer.status, answer.headers ?? {});
      reply.raw.flushHeaders();
      answer.body.pipe(reply.raw);
      reply.raw.on('close', () => (answer.body as Readable).destroy());
      return reply;
    }
    reply.status(answer.status).headers(answer.headers ?? {});
    return answer.body === undefined ? reply.send() : reply.send(answer.body);
  });
  await app.listen({ host: '127.0.0.1', port: options.port ?? 0 });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return { port, calls, close: () => app.close() };
}

/** A Wings stat as the stand-in's listings give it (fixed times, so answers can be compared). */
export function wingsStat(name: string, options: { size?: number; directory?: boolean; mime?: string } = {}) {
  const directory = options.directory ?? false;
  return {
    name,
    created: '2024-05-07T12:55:57+02:00',
    modified: '2024-05-08T09:00:00Z',
    mode: directory ? 'drwxr-xr-x' : '-rw-r--r--',
    mode_bits: directory ? '755' : '644',
    size: options.size ?? (directory ? 4096 : 0),
    directory,
    file: !directory,
    symlink: false,
    mime: options.mime ?? (directory ? 'inode/directory' : 'text/plain; charset=utf-8'),
  };
}

/**
 * Wings' answers to `/api/servers/{uuid}/files/*` over an in-memory tree (`files`: path without leading slash →
 * contents), for `answer`: list-directory lists it (folders first), contents sends the bytes with their length
 * and X-Mime-Type (404 when missing), write stores the body, compress answers the new archive's stat, every
 * other file call 204. Anything else: undefined, for the caller's default.
 */
export function wingsFileAnswers(files: Map<string, Buffer>) {
  const key = (path: string | undefined) => (path ?? '').replace(/^\/+/, '');
  return (call: DaemonCall): DaemonAnswer | undefined => {
    const action = /^\/api\/servers\/[^/]+\/files\/([a-z-]+)$/.exec(call.path)?.[1];
    switch (action) {
      case undefined:
        return undefined;
      case 'list-directory':
        return { status: 200, body: listDirectory(files, key(call.query.directory)) };
      case 'contents': {
        const data = files.get(key(call.query.file));
        if (!data)
          return { status: 404, body: { error: 'The requested resources was not found on the system.' } };
        return { status: 200, headers: { 'x-mime-type': 'text/plain' }, body: data };
      }
      case 'write':
        files.set(key(call.query.file), call.body as Buffer);
        return { status: 204 };
      case 'compress':
        return {
          status: 200,
          body: wingsStat('archive-2024-05-08T090000Z.tar.gz', { size: 2048, mime: 'application/tar+gzip' }),
        };
      default:
        return { status: 204 };
    }
  };
}

function listDirectory(files: Map<string, Buffer>, directory: string) {
  const prefix = directory === '' ? '' : `${directory.replace(/\/+$/, '')}/`;
  const folders = new Set<string>();
  const entries: ReturnType<typeof wingsStat>[] = [];
  for (const [path, data] of files) {
    if (!path.startsWith(prefix)) continue;
    const [name, ...deeper] = path.slice(prefix.length).split('/');
    if (!name) continue;
    if (deeper.length > 0) folders.add(name);
    else entries.push(wingsStat(name, { size: data.length }));
  }
  const byName = (a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name);
  return [
    ...[...folders].map((name) => wingsStat(name, { directory: true })).sort(byName),
    ...entries.sort(byName),
  ];
}

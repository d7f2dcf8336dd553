import type { IncomingHttpHeaders } from 'node:http';
import Fastify from 'fastify';

export interface DaemonCall {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: unknown;
}

export type DaemonAnswer = { status: number; body?: unknown } | 'hang-up';

/**
 * A stand-in for a node's daemon on a real socket (port 0 unless given): records every request it gets, and answers each
 * with what `answer` decides (204 by default, Wings' answer to most calls). Its token check is Wings': the
 * `Bearer <token>` alone, 401 without it, 403 when it differs.
 */
export async function startDaemonStandIn(options: {
  token: string;
  answer?: (call: DaemonCall) => DaemonAnswer | undefined | Promise<DaemonAnswer | undefined>;
  /** A fixed port (default: any free one). */
  port?: number;
}) {
  const calls: DaemonCall[] = [];
  const app = Fastify({ logger: false });
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    try {
      done(null, body === '' ? undefined : JSON.parse(String(body)));
    } catch (error) {
      done(error as Error, undefined);
    }
  });
  app.all('/*', async (request, reply) => {
    const call = { method: request.method, url: request.url, headers: request.headers, body: request.body };
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
    return answer.body === undefined
      ? reply.status(answer.status).send()
      : reply.status(answer.status).send(answer.body);
  });
  await app.listen({ host: '127.0.0.1', port: options.port ?? 0 });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return { port, calls, close: () => app.close() };
}

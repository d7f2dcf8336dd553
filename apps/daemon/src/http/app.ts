import Fastify, { type FastifyServerOptions } from 'fastify';
import { systemInfo } from '../system/system-info';

/** The daemon's HTTP API. For now only the system endpoint; servers, files and the websocket follow. */
export function buildDaemonApp(options: { logger?: FastifyServerOptions['logger'] } = {}) {
  const app = Fastify({ logger: options.logger ?? false, routerOptions: { ignoreTrailingSlash: true } });
  app.get('/api/system', async () => systemInfo());
  app.setNotFoundHandler((_request, reply) =>
    reply.status(404).send({ error: 'The requested resource does not exist on this instance.' }),
  );
  return app;
}

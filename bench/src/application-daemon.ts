import Fastify from 'fastify';

/**
 * The node's daemon for bench:application, in the bench's process: 204 to everything, as Wings answers
 * `POST /api/servers` (the panel hands it every created server). No installs, no containers: a real daemon per
 * 1,000 servers would measure the daemon, not the API. Counts the servers it was handed.
 */
export async function startDaemonStandIn() {
  const app = Fastify({ logger: false });
  let created = 0;
  app.all('/*', async (request, reply) => {
    if (request.method === 'POST' && request.url === '/api/servers') created += 1;
    return reply.status(204).send();
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  return {
    port: typeof address === 'object' && address ? address.port : 0,
    created: () => created,
    close: () => app.close(),
  };
}

// The baseline every panel figure is divided by: a bare Fastify app answering a small JSON object,
// run in its own process exactly like the panel so both get the same core.
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.get('/baseline', async () => ({ object: 'user', attributes: { id: 1, username: 'baseline' } }));
const address = await app.listen({ host: '127.0.0.1', port: Number(process.env.PORT ?? 0) });
console.log(`listening ${address}`);

// The baseline every panel figure is divided by: a bare Fastify app answering a small JSON object,
// run in its own process exactly like the panel so both get the same core. With BASELINE_BODY_FILE it also
// answers `/baseline/body` with that file's JSON (parsed once, serialized on every request as the panel does),
// for a baseline of the same size and shape as a panel answer.
import { readFileSync } from 'node:fs';
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.get('/baseline', async () => ({ object: 'user', attributes: { id: 1, username: 'baseline' } }));
if (process.env.BASELINE_BODY_FILE) {
  const body: unknown = JSON.parse(readFileSync(process.env.BASELINE_BODY_FILE, 'utf8'));
  app.get('/baseline/body', async () => body);
}
const address = await app.listen({ host: '127.0.0.1', port: Number(process.env.PORT ?? 0) });
console.log(`listening ${address}`);

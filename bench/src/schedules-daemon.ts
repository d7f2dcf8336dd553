// `node --import tsx bench/src/schedules-daemon.ts` with PORT: the node's daemon for bench:schedules, in its own
// process (as a node is another machine): 204 to a command, 202 to a power action, `running` for a server's state,
// like Wings. It counts every command and when it arrived (wall clock, comparable with the bench's), and answers
// those figures at GET /stats; POST /reset starts the count again.
import Fastify from 'fastify';

const app = Fastify({ logger: false });
let counts = new Map<string, number>();
let first = 0;
let last = 0;

app.post('/api/servers/:uuid/commands', async (request, reply) => {
  const command = (request.body as { commands?: string[] } | undefined)?.commands?.[0] ?? '';
  counts.set(command, (counts.get(command) ?? 0) + 1);
  const now = Date.now();
  if (first === 0) first = now;
  last = now;
  return reply.status(204).send();
});
app.post('/api/servers/:uuid/power', async (_request, reply) => reply.status(202).send());
app.get('/api/servers/:uuid', async () => ({ state: 'running', is_suspended: false, utilization: {} }));
app.get('/stats', async () => {
  let received = 0;
  let duplicates = 0;
  for (const count of counts.values()) {
    received += count;
    if (count > 1) duplicates += count - 1;
  }
  return { received, distinct: counts.size, duplicates, first, last };
});
app.post('/reset', async (_request, reply) => {
  counts = new Map();
  first = 0;
  last = 0;
  return reply.status(204).send();
});

await app.listen({ host: '127.0.0.1', port: Number(process.env.PORT) });
process.on('SIGINT', () => void app.close().then(() => process.exit(0)));

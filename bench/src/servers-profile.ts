// `npx tsx bench/src/servers-profile.ts`: where a request of the server list goes, in this process. Seeds a fresh
// data directory as bench:servers does, builds the panel app on a database wrapped in a QueryCounter, signs in
// and prints, per route: the statements one request sends (by kind) and their query plans (EXPLAIN QUERY PLAN on
// SQLite, EXPLAIN on PostgreSQL and MariaDB). Run with `node --cpu-prof --import tsx` for a CPU profile of
// BENCH_PROFILE_REQUESTS (300) requests per route through app.inject (BENCH_PROFILE_ROUTE: only that one).
import { buildApp } from '@aerie/panel/app';
import { prepare } from '@aerie/panel/cli/prepare';
import { loadConfig } from '@aerie/panel/config/load-config';
import { dialectOf } from '@aerie/panel/db/dialect';
import {
  CompiledQuery,
  type KyselyPlugin,
  type PluginTransformQueryArgs,
  type RootOperationNode,
} from 'kysely';
import { benchAdmin, preparePanel, runNode } from './bench-setup';
import { QueryCounter } from './query-counter';

const users = Number(process.env.BENCH_USERS ?? 1000);
const servers = Number(process.env.BENCH_SERVERS ?? 10_000);
const requests = Number(process.env.BENCH_PROFILE_REQUESTS ?? 300);

const prepared = await preparePanel();
const seedArgs = ['--users', String(users), '--servers', String(servers), '--owner', benchAdmin.username];
process.stdout.write(
  runNode(['--import', 'tsx', 'apps/panel/src/dev/seed-servers.cli.ts', ...seedArgs], prepared.env),
);
Object.assign(process.env, prepared.env);
const config = loadConfig();
const { db, appKey } = await prepare(config, { migrate: false, print: () => {} });

/** Keeps the compiled SQL of every statement while `recording` is set. */
class Recorder implements KyselyPlugin {
  recording = false;
  readonly nodes: RootOperationNode[] = [];
  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    if (this.recording) this.nodes.push(args.node);
    return args.node;
  }
  async transformResult<T>(args: { result: T }): Promise<T> {
    return args.result;
  }
}
const counter = new QueryCounter();
const recorder = new Recorder();
const counted = db.withPlugin(counter).withPlugin(recorder);
const app = await buildApp({ config, db: counted, appKey, logger: false });

try {
  const shell = await app.inject({ url: '/auth/login' });
  const csrf = shell.body.match(/<meta name="csrf-token" content="([^"]+)"/)?.[1] ?? '';
  const jar = new Map<string, string>();
  const keep = (cookies: { name: string; value: string }[]) => {
    for (const cookie of cookies) jar.set(cookie.name, cookie.value);
  };
  keep(shell.cookies);
  const cookieHeader = () => [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
  const login = await app.inject({
    method: 'POST',
    url: '/auth/login',
    headers: {
      accept: 'application/json',
      'x-requested-with': 'XMLHttpRequest',
      'x-csrf-token': csrf,
      cookie: cookieHeader(),
    },
    payload: { user: benchAdmin.username, password: benchAdmin.password },
  });
  if (login.statusCode !== 200) throw new Error(`sign-in failed: ${login.statusCode} ${login.body}`);
  keep(login.cookies);
  const headers = {
    cookie: cookieHeader(),
    accept: 'application/json',
    'x-requested-with': 'XMLHttpRequest',
  };

  const routes = [
    '/api/client?type=admin-all',
    '/api/client?filter%5B*%5D=valheim',
    '/api/client?type=admin-all&filter%5B*%5D=valheim',
    '/api/client?type=admin-all&page=100',
    '/api/client?type=admin-all&filter%5Bname%5D=valheim',
  ];
  const dialect = dialectOf(db);
  for (const url of routes) {
    await app.inject({ url, headers }); // warm caches before counting
    counter.reset();
    recorder.nodes.length = 0;
    recorder.recording = true;
    const response = await app.inject({ url, headers });
    recorder.recording = false;
    const kinds = [...counter.byKind].map(([kind, n]) => `${kind} ${n}`).join(', ');
    console.log(
      `\n${url}: ${response.statusCode}, ${response.body.length} bytes, ${counter.total} statements (${kinds})`,
    );
    for (const node of recorder.nodes) {
      const compiled = db.getExecutor().compileQuery(node, { queryId: '' } as never);
      const plain = db.withoutPlugins();
      const again = CompiledQuery.raw(compiled.sql, [...compiled.parameters]);
      const t0 = performance.now();
      for (let i = 0; i < 50; i++) await plain.executeQuery(again);
      const ms = ((performance.now() - t0) / 50).toFixed(3);
      console.log(`  ${ms} ms  ${compiled.sql.slice(0, 200)}${compiled.sql.length > 200 ? '…' : ''}`);
      if (node.kind !== 'SelectQueryNode') continue;
      const explain = dialect === 'sqlite' ? 'EXPLAIN QUERY PLAN ' : 'EXPLAIN ';
      const plan = await db
        .withoutPlugins()
        .executeQuery(CompiledQuery.raw(explain + compiled.sql, [...compiled.parameters]))
        .catch((error: Error) => ({ rows: [{ error: error.message }] }));
      for (const row of plan.rows as Record<string, unknown>[]) {
        console.log(
          `      ${Object.values(row)
            .filter((v) => v !== null)
            .join(' | ')}`,
        );
      }
    }
  }

  console.log(`\ntiming ${requests} requests per route through app.inject (one at a time):`);
  const timed = process.env.BENCH_PROFILE_ROUTE ? [process.env.BENCH_PROFILE_ROUTE] : routes;
  for (const url of timed) {
    const started = performance.now();
    for (let i = 0; i < requests; i++) await app.inject({ url, headers });
    console.log(`  ${url}: ${((performance.now() - started) / requests).toFixed(2)} ms per request`);
  }
} finally {
  await app.close();
  await db.destroy();
  prepared.cleanUp();
}

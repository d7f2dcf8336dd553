// `npm run bench:application -w @aerie/bench`: Pterodactyl's Application API on a panel in its own process
// (SQLite unless DATABASE_URL is set). 1,000 servers created through POST /api/application/servers at a modest
// concurrency (half naming their allocation, half through `deploy`), then their list, 100 a page with the
// allocations and user includes, under autocannon against a bare Fastify route serving the same JSON body.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type CreateResult, createServers } from './src/application-create';
import { startDaemonStandIn } from './src/application-daemon';
import type { ApplicationSeed } from './src/application-layout';
import {
  benchAdmin,
  benchSeconds,
  buildWeb,
  formatRow,
  preparePanel,
  runNode,
  startBaseline,
  startPanel,
} from './src/bench-setup';
import type { ChildServer } from './src/child-server';
import { type LoadResult, load } from './src/load';

const seconds = benchSeconds;
const servers = Number(process.env.BENCH_SERVERS ?? 1000);
const concurrency = Number(process.env.BENCH_CREATE_CONCURRENCY ?? 8);
const explicit = Math.ceil(servers / 2);
const deployed = servers - explicit;
/** Created and deleted again before the timed batches, so JIT and first-query costs are not in either. */
const warmUp = 24;

// The panel serves the web build's shell (its readiness check); build it only when it is missing.
buildWeb({ onlyIfMissing: true });
const prepared = await preparePanel();
// 0 turns the per-admin limit (240/min by default) off: with it every figure below would be the limiter's.
prepared.env.API_APPLICATION_RATELIMIT = '0';
const daemon = await startDaemonStandIn();
const cleanUps: (() => Promise<unknown> | unknown)[] = [prepared.cleanUp, daemon.close];
const started = async (server: Promise<ChildServer>) => {
  const child = await server;
  cleanUps.push(child.stop);
  return child;
};

try {
  const seedArgs = ['--daemon-port', String(daemon.port), '--owner', benchAdmin.username];
  const seed = JSON.parse(
    runNode(
      [
        '--import',
        'tsx',
        'bench/src/application-seed.cli.ts',
        ...seedArgs,
        ...['--explicit', String(explicit + warmUp), '--deploy', String(deployed)],
      ],
      prepared.env,
    )
      .trim()
      .split('\n')
      .at(-1) ?? '',
  ) as ApplicationSeed;
  const key = runNode(
    ['bin/aerie.mjs', 'key:create', '--application', '--user', benchAdmin.username, '--memo', 'bench'],
    prepared.env,
  ).trim();
  const panel = await started(startPanel(prepared));
  const api = {
    authorization: `Bearer ${key}`,
    accept: 'Application/vnd.pterodactyl.v1+json',
  };

  const body = (name: string, placement: Record<string, unknown>) => ({
    name,
    user: seed.ownerId,
    egg: seed.eggId,
    docker_image: 'node:20-bookworm-slim',
    startup: 'node demo-server.mjs',
    environment: { MOTD: 'Bench', MAX_PLAYERS: '20' },
    limits: { memory: 512, swap: 0, disk: 1024, io: 500, cpu: 100 },
    feature_limits: { databases: 0, allocations: 1, backups: 0 },
    ...placement,
  });
  const post = { ...api, 'content-type': 'application/json' };
  const createUrl = `${panel.url}/api/application/servers`;
  const warm = await createServers(
    createUrl,
    post,
    (i) => body(`Bench warm-up ${i}`, { allocation: { default: seed.explicitAllocationIds[explicit + i] } }),
    warmUp,
    concurrency,
  );
  if (warm.failures.length > 0) throw new Error(`warm-up create failed: ${warm.failures[0]}`);
  for (const id of warm.ids) {
    const response = await fetch(`${createUrl}/${id}`, { method: 'DELETE', headers: api });
    if (response.status !== 204)
      throw new Error(`warm-up delete: ${response.status} ${await response.text()}`);
  }
  const explicitResult = await createServers(
    createUrl,
    post,
    (i) => body(`Bench explicit ${i}`, { allocation: { default: seed.explicitAllocationIds[i] } }),
    explicit,
    concurrency,
  );
  const deploy = {
    locations: seed.locationId === null ? [] : [seed.locationId],
    dedicated_ip: false,
    port_range: seed.deployPortRange,
  };
  const deployResult = await createServers(
    createUrl,
    post,
    (i) => body(`Bench deploy ${i}`, { deploy }),
    deployed,
    concurrency,
  );
  for (const failure of [...explicitResult.failures, ...deployResult.failures].slice(0, 5)) {
    console.error(`create failed: ${failure}`);
  }

  // Check the answers before timing them: a figure for an error page would be meaningless.
  const lastPage = Math.max(1, Math.ceil(servers / 100));
  const listPath = (page: number, include = true) =>
    `/api/application/servers?${include ? 'include=allocations,user&' : ''}per_page=100&page=${page}`;
  const first = await fetch(panel.url + listPath(1), { headers: api });
  const firstText = await first.text();
  const firstBody = JSON.parse(firstText) as {
    data?: { attributes: { relationships?: Record<string, { data?: unknown }> } }[];
    meta?: { pagination?: { total?: number } };
  };
  const relationships = Object.keys(firstBody.data?.[0]?.attributes.relationships ?? {});
  console.log(
    `${listPath(1)}: ${first.status}, ${firstBody.data?.length} items of ${firstBody.meta?.pagination?.total}, ${firstText.length} bytes, relationships: ${relationships.join(', ') || 'none'}`,
  );
  const bodyFile = join(prepared.env.DATA_DIR ?? '', 'baseline-body.json');
  writeFileSync(bodyFile, firstText);
  const baseline = await started(startBaseline({ BASELINE_BODY_FILE: bodyFile }));
  const baselineBytes = (await (await fetch(`${baseline.url}/baseline/body`)).text()).length;
  console.log(`baseline /baseline/body: ${baselineBytes} bytes (the same page, as a static JSON object)`);

  const routes: [string, string][] = [
    ['list page 1, include=allocations,user', listPath(1)],
    [`list page ${lastPage}, include=allocations,user`, listPath(lastPage)],
    ['list page 1, no include (smaller body)', listPath(1, false)],
  ];
  await load(`${baseline.url}/baseline/body`, {}, 2);
  for (const [, path] of routes) await load(panel.url + path, api, 2);
  const before = await load(`${baseline.url}/baseline/body`, {}, seconds);
  const results: [string, LoadResult][] = [];
  for (const [name, path] of routes) results.push([name, await load(panel.url + path, api, seconds)]);
  const after = await load(`${baseline.url}/baseline/body`, {}, seconds);
  const baselineRps = (before.requestsPerSecond + after.requestsPerSecond) / 2;

  const createRow = (name: string, r: CreateResult) =>
    `${name.padEnd(50)} ${r.perSecond.toFixed(1).padStart(8)} servers/s  p50 ${r.p50Ms.toFixed(1)} ms  p99 ${r.p99Ms.toFixed(1)} ms  failed ${r.failures.length} of ${r.count}  (${r.seconds.toFixed(1)} s)`;
  const total: CreateResult = {
    ...explicitResult,
    count: servers,
    failures: [...explicitResult.failures, ...deployResult.failures],
    seconds: explicitResult.seconds + deployResult.seconds,
    perSecond: servers / (explicitResult.seconds + deployResult.seconds),
  };
  console.log(
    `\n${servers} servers (${process.env.DATABASE_URL ? 'DATABASE_URL' : 'SQLite'}); API_APPLICATION_RATELIMIT=0 (the per-admin limiter is off); the node's daemon is a stand-in answering 204 (${daemon.created() - warmUp} servers handed to it, after ${warmUp} created and deleted to warm up)`,
  );
  console.log(`POST /api/application/servers, ${concurrency} in flight:`);
  console.log(createRow(`explicit allocation.default (${explicit})`, explicitResult));
  console.log(createRow(`deploy, one location, port_range (${deployed})`, deployResult));
  console.log(
    `${'all'.padEnd(50)} ${total.perSecond.toFixed(1).padStart(8)} servers/s  (p50/p99 per batch above)`,
  );
  console.log(
    `\nGET /api/application/servers?include=allocations,user&per_page=100 (${firstText.length} bytes a page); autocannon: 32 connections, ${seconds} s each`,
  );
  const row = (name: string, r: LoadResult) => formatRow(name, r, baselineRps, 50);
  console.log(row('baseline: bare Fastify, same body (before)', before));
  console.log(row('baseline: bare Fastify, same body (after)', after));
  for (const [name, result] of results) console.log(row(name, result));
  if (total.failures.length > 0 || daemon.created() !== servers + warmUp - total.failures.length) {
    console.error('some creates failed or never reached the daemon: the create figures are not valid');
    process.exitCode = 1;
  }
  if (results.some(([, r]) => r.non2xx > 0)) {
    console.error('some panel responses were not 2xx: the figures above are not valid');
    process.exitCode = 1;
  }
} finally {
  for (const cleanUp of cleanUps.reverse()) await cleanUp();
}

// `npx tsx bench/src/panel-profile.ts`: a CPU profile of the panel (`aerie panel`, compiled when fresh) under the
// load `npm run bench` puts on it: BENCH_PROFILE_PATH (`/auth/login`; an /api path is asked with the bench admin's
// session) for 8 s after a 2 s warm-up, 32 connections. The profile lands in BENCH_PROFILE_DIR
// (`./panel-profile`) as the panel stops; open it in Chrome's DevTools or any .cpuprofile viewer.
import { resolve } from 'node:path';
import { benchAdmin, preparePanel } from './bench-setup';
import { startChildServer } from './child-server';
import { load } from './load';
import { sessionApiHeaders, signIn } from './sign-in';

const path = process.env.BENCH_PROFILE_PATH ?? '/auth/login';
const directory = resolve(process.env.BENCH_PROFILE_DIR ?? 'panel-profile');
const prepared = await preparePanel();
const panel = await startChildServer(
  ['--cpu-prof', `--cpu-prof-dir=${directory}`, 'bin/aerie.mjs', 'panel'],
  prepared.env,
  `http://127.0.0.1:${prepared.port}`,
  '/auth/login',
);
try {
  const cookie = await signIn(panel.url, benchAdmin.username, benchAdmin.password);
  const api = sessionApiHeaders(cookie);
  const headers = path.startsWith('/api/') ? api : {};
  await load(panel.url + path, headers, 2);
  const result = await load(panel.url + path, headers, 8);
  console.log(
    `${path}: ${Math.round(result.requestsPerSecond)} req/s under the profiler, non-2xx ${result.non2xx}`,
  );
} finally {
  await panel.stop();
  prepared.cleanUp();
}
console.log(`profile written to ${directory}`);

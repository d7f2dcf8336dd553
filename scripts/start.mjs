#!/usr/bin/env node
// `npm start`: builds the web app, and the panel and daemon to JavaScript (dist/server), each when its sources are
// newer than its last build, then runs `aerie up` from that JavaScript.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { buildServer, serverBuildIsFresh } from './server-build.mjs';

const web = 'apps/web';
const builtAt = existsSync(join(web, 'dist/index.html')) ? statSync(join(web, 'dist/index.html')).mtimeMs : 0;

const newestIn = (dir) => {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestIn(path) : statSync(path).mtimeMs);
  }
  return newest;
};
const sources = ['src', 'public', 'index.html', 'vite.config.ts', '../../packages/shared/src'].map((p) =>
  join(web, p),
);
const newestSource = Math.max(
  ...sources.filter(existsSync).map((p) => (statSync(p).isDirectory() ? newestIn(p) : statSync(p).mtimeMs)),
);

if (newestSource > builtAt) {
  console.log('Building the web app…');
  const build = spawnSync('npx', ['--workspace', '@aerie/web', 'vite', 'build', '--logLevel', 'warn'], {
    stdio: 'inherit',
  });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

if (!serverBuildIsFresh()) {
  console.log('Building the panel and daemon…');
  await buildServer();
}

// `aerie start` runs in this process: it keeps `aerie up` running (started again should it crash) and passes Ctrl-C
// and SIGTERM on to it.
process.argv = [process.argv[0], 'aerie', 'start', ...process.argv.slice(2)];
await import('../bin/aerie.mjs');

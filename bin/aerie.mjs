#!/usr/bin/env node
// The `aerie` command. `npm start` (or `npm run build`) compiles the panel and daemon to dist/server
// (scripts/server-build.mjs); that JavaScript runs when it is newer than every source file. Otherwise, as after
// an edit or in tests, the TypeScript runs through tsx's loader, so a stale build never runs.
import { serverBuildIsFresh, serverEntry } from '../scripts/server-build.mjs';

if (process.env.AERIE_TYPESCRIPT !== '1' && serverBuildIsFresh()) {
  // dist/server has linked source maps; they are not loaded by default (~7 MiB of the idle daemon's RSS):
  // NODE_OPTIONS=--enable-source-maps makes stack traces name the TypeScript files and lines.
  await import(serverEntry);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import('../apps/panel/src/cli/main.ts');
}

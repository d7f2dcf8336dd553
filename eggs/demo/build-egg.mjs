#!/usr/bin/env node
// Writes eggs/aerie-demo.json from egg-template.json, install-script.sh and demo-server.mjs, so the install
// script always carries the current server in its heredoc.
//   node eggs/demo/build-egg.mjs           write the egg
//   node eggs/demo/build-egg.mjs --check   exit 1 when the committed egg differs from what would be written
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const here = (name) => fileURLToPath(new URL(name, import.meta.url));
export const eggPath = here('../aerie-demo.json');
const HEREDOC_END = 'AERIE_DEMO_SERVER_MJS';

/** The egg JSON text, exactly as it should be committed. */
export function buildDemoEgg() {
  const source = readFileSync(here('demo-server.mjs'), 'utf8');
  const script = readFileSync(here('install-script.sh'), 'utf8');
  const template = JSON.parse(readFileSync(here('egg-template.json'), 'utf8'));

  if (!source.endsWith('\n')) throw new Error('demo-server.mjs must end with a newline.');
  // A line equal to the delimiter would end the heredoc early; the install test rewrites /mnt/server.
  if (source.split('\n').includes(HEREDOC_END) || source.includes('/mnt/server')) {
    throw new Error(`demo-server.mjs must not contain a "${HEREDOC_END}" line or the text "/mnt/server".`);
  }
  // Function replacements: the source is full of `$` that a replacement string would interpret.
  template.scripts.installation.script = script.replace('@@DEMO_SERVER_SOURCE@@', () => source.slice(0, -1));
  return `${JSON.stringify(template, null, 4)}\n`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const egg = buildDemoEgg();
  if (process.argv.includes('--check')) {
    let committed = '';
    try {
      committed = readFileSync(eggPath, 'utf8');
    } catch {}
    if (committed !== egg) {
      console.error(
        'eggs/aerie-demo.json is stale: run `node eggs/demo/build-egg.mjs` and commit the result.',
      );
      process.exit(1);
    }
    console.log('eggs/aerie-demo.json is up to date.');
  } else {
    writeFileSync(eggPath, egg);
    console.log(`Wrote ${eggPath}`);
  }
}

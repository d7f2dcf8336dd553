#!/usr/bin/env node
// `npm test`: builds the web app (the end-to-end tests serve it), runs every Vitest project on SQLite,
// then the panel's tests once more for each URL in AERIE_TEST_DATABASE_URLS (CI sets PostgreSQL and
// MariaDB there), and closes with one line adding all runs up.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const dir = mkdtempSync(join(tmpdir(), 'aerie-tally-'));
const tally = join(dir, 'tally.jsonl');
let ok = true;

const run = (label, args, extraEnv = {}) => {
  console.log(`\n=== ${label} ===`);
  const result = spawnSync('npx', args, {
    stdio: 'inherit',
    env: {
      // Every panel and daemon a test starts, in-process or as a child, sheds no load for its event loop running
      // late: here that measures the other suites sharing the two cores, not the process. The admission tests set
      // their own bound; the in-flight bound stays on.
      PANEL_MAX_EVENT_LOOP_DELAY: '0',
      DAEMON_MAX_EVENT_LOOP_DELAY: '0',
      ...process.env,
      AERIE_TEST_TALLY: tally,
      AERIE_TEST_RUN_LABEL: label,
      ...extraEnv,
    },
  });
  if (result.status !== 0) ok = false;
};

run('build the web app', ['--workspace', '@aerie/web', 'vite', 'build', '--logLevel', 'warn']);
run('all projects on SQLite', ['vitest', 'run', ...process.argv.slice(2)]);
for (const url of (process.env.AERIE_TEST_DATABASE_URLS ?? '').split(',').filter(Boolean)) {
  const dialect = new URL(url).protocol.replace(':', '');
  run(`panel on ${dialect}`, ['vitest', 'run', '--project', 'panel'], { AERIE_TEST_DATABASE_URL: url });
}

const totals = { passed: 0, failed: 0, skipped: 0 };
const failures = [];
if (existsSync(tally)) {
  for (const line of readFileSync(tally, 'utf8').split('\n').filter(Boolean)) {
    const counts = JSON.parse(line);
    for (const key of Object.keys(totals)) totals[key] += counts[key];
    for (const failure of counts.failures ?? []) failures.push(`[${counts.label}] ${failure}`);
  }
}
// Just above the closing line, so a log kept only by its tail still names what failed.
if (failures.length > 0) console.log(`\nFailed:\n${failures.slice(0, 40).join('\n')}`);
rmSync(dir, { recursive: true, force: true });
if (totals.passed + totals.failed === 0) ok = false;
console.log(`\nTests: ${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(ok && totals.failed === 0 ? 0 : 1);

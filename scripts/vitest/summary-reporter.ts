import { appendFileSync } from 'node:fs';
import { relative } from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';

/** The first line of an error's message, bounded, so a failure fits on one line of a log's tail. */
const firstLine = (message: string | undefined) => (message ?? '').split('\n')[0]?.slice(0, 200) ?? '';

/**
 * Ends a Vitest run with the plain line CI reads: `Tests: N passed, N failed, N skipped`.
 * When AERIE_TEST_TALLY names a file, the counts are also appended there as JSON so
 * scripts/test.mjs can add several runs (SQLite, PostgreSQL, MariaDB) into one closing line, with the name of
 * each failed test, which it prints just above that line: a CI log kept only by its tail still says what failed.
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>, errors: ReadonlyArray<unknown>): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    const failures: string[] = [];
    for (const module of modules) {
      const file = relative(process.cwd(), module.moduleId);
      // A file that failed to load has no tests but must still count as a failure.
      if (module.state() === 'failed' && [...module.children.allTests()].length === 0) {
        failed++;
        failures.push(`${file}: ${firstLine(module.errors()[0]?.message) || 'failed to load'}`);
      }
      for (const test of module.children.allTests()) {
        const result = test.result();
        if (result.state === 'passed') passed++;
        else if (result.state === 'failed') {
          failed++;
          failures.push(`${file} > ${test.fullName}: ${firstLine(result.errors?.[0]?.message)}`);
        } else skipped++;
      }
    }
    for (const error of errors) {
      failed++;
      failures.push(`unhandled error: ${firstLine((error as { message?: string }).message)}`);
    }
    const tally = process.env.AERIE_TEST_TALLY;
    const label = process.env.AERIE_TEST_RUN_LABEL ?? 'tests';
    if (tally) appendFileSync(tally, `${JSON.stringify({ passed, failed, skipped, failures, label })}\n`);
    console.log(`\nTests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
  }
}

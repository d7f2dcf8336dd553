import { appendFileSync } from 'node:fs';
import type { Reporter, TestModule } from 'vitest/node';

/**
 * Ends a Vitest run with the plain line CI reads: `Tests: N passed, N failed, N skipped`.
 * When AERIE_TEST_TALLY names a file, the counts are also appended there as JSON so
 * scripts/test.mjs can add several runs (SQLite, PostgreSQL, MariaDB) into one closing line.
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>, errors: ReadonlyArray<unknown>): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    for (const module of modules) {
      // A file that failed to load has no tests but must still count as a failure.
      if (module.state() === 'failed' && [...module.children.allTests()].length === 0) failed++;
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') passed++;
        else if (state === 'failed') failed++;
        else skipped++;
      }
    }
    if (errors.length > 0) failed += errors.length;
    const tally = process.env.AERIE_TEST_TALLY;
    if (tally) appendFileSync(tally, `${JSON.stringify({ passed, failed, skipped })}\n`);
    console.log(`\nTests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
  }
}

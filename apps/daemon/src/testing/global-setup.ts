import { rm } from 'node:fs/promises';
import { TEST_RUN_ROOT } from './test-run-directory';

/**
 * Game servers outlive whoever started them, tests included: removing every test run directory at the end tells
 * each holder a test left behind to end its game (they check every few seconds).
 */
export async function teardown(): Promise<void> {
  await rm(TEST_RUN_ROOT, { recursive: true, force: true });
}

import { defineProject } from 'vitest/config';

// End-to-end tests start the real panel (`aerie up`) and drive Debian's Chromium through Playwright.
export default defineProject({
  test: {
    name: 'e2e',
    environment: 'node',
    include: ['src/**/*.test.ts'],
    setupFiles: ['src/support/one-connection-per-call.ts'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // One panel and one browser at a time: the machine has two cores.
    fileParallelism: false,
  },
});

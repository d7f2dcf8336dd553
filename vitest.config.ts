import { defineConfig } from 'vitest/config';

// One run covers every workspace; each project keeps its own environment and set-up.
export default defineConfig({
  test: {
    reporters: ['default', './scripts/vitest/summary-reporter.ts'],
    projects: ['packages/shared', 'apps/panel', 'apps/daemon', 'apps/web', 'e2e'],
  },
});

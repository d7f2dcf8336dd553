import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineProject } from 'vitest/config';
import { localesDefine } from './locales.config.ts';

export default defineProject({
  plugins: [react()],
  define: localesDefine(),
  resolve: { alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) } },
  test: {
    name: 'web',
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['./src/testing/setup-tests.ts'],
    // A test renders the whole app (router, lazy pages, i18n) in jsdom: about a second alone, several times that
    // while CI runs the daemon's, the panel's and the browser tests beside it (the admin Databases tab's tests ran
    // past 5 s there). A limit on a hang, not a speed goal.
    testTimeout: 15_000,
  },
});

import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'panel',
    environment: 'node',
    include: ['src/**/*.test.ts'],
    // Each file builds its own app on its own database; argon2 and a real DB make some tests slower than 5 s.
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});

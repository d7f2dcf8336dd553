import { randomBytes } from 'node:crypto';

/**
 * The Redis the tests of several-panel behaviour use: AERIE_TEST_REDIS_URL (`.ci/run` starts a real redis-server
 * and sets it). Without it those tests are skipped (the reason is printed once), except under CI=true, where they
 * run and fail.
 */
export const testRedisUrl = process.env.AERIE_TEST_REDIS_URL;

export const skipWithoutRedis = testRedisUrl === undefined && process.env.CI !== 'true';

if (skipWithoutRedis) {
  console.warn(
    'Skipping the Redis tests: set AERIE_TEST_REDIS_URL (e.g. redis://127.0.0.1:6379) to run them against a real redis-server',
  );
}

/** The URL, or the failure that says why under CI. */
export function requireTestRedis(): string {
  if (!testRedisUrl) throw new Error('AERIE_TEST_REDIS_URL is not set: CI must start redis-server (.ci/run)');
  return testRedisUrl;
}

/** A key prefix of its own, so tests sharing one Redis never share a count. */
export const uniqueRedisPrefix = () => `aerie-test-${randomBytes(6).toString('hex')}:`;

import type { Log } from '@aerie/panel/logging/log';
import { MemorySharedStore } from './memory-shared-store';
import { RedisSharedStore } from './redis-shared-store';
import type { SharedStore } from './shared-store';

/** Redis when `redis` is configured (REDIS_URL), else this process's memory. */
export function createSharedStore(
  redis: { url: string; prefix: string } | undefined,
  log: Pick<Log, 'warn'>,
): SharedStore {
  return redis ? new RedisSharedStore(redis, log) : new MemorySharedStore();
}

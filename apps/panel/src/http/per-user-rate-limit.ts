import type { SharedStore } from '@aerie/panel/shared-store/shared-store';
import type { FastifyReply } from 'fastify';
import { RateLimiterRes } from 'rate-limiter-flexible';
import { tooManyRequests } from './errors';

/**
 * A surface's per-user request budget (Laravel's named API limiters): `limit` requests a minute per user uuid,
 * counted in the shared store (this process's memory, or Redis for every panel process with REDIS_URL). Allowed answers carry X-RateLimit-Limit/-Remaining; past the budget a 429 with
 * Retry-After. `limit` 0 turns it off.
 */
export function perUserRateLimit(store: SharedStore, name: string, limit: number) {
  const limiter = limit > 0 ? store.counter({ name, points: limit, windowSeconds: 60 }) : null;
  return async function consume(userUuid: string, reply: FastifyReply): Promise<void> {
    if (!limiter) return;
    try {
      const state = await limiter.consume(userUuid);
      reply.header('x-ratelimit-limit', limit).header('x-ratelimit-remaining', state.remainingPoints);
    } catch (rejection) {
      if (!(rejection instanceof RateLimiterRes)) throw rejection;
      throw tooManyRequests(Math.max(1, Math.ceil(rejection.msBeforeNext / 1000)), limit);
    }
  };
}

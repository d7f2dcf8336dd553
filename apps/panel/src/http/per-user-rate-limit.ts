import type { FastifyReply } from 'fastify';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { tooManyRequests } from './errors';

/**
 * A surface's per-user request budget (Laravel's named API limiters): `limit` requests a minute per user uuid,
 * counted in this process. Allowed answers carry X-RateLimit-Limit/-Remaining; past the budget a 429 with
 * Retry-After. `limit` 0 turns it off.
 */
export function perUserRateLimit(name: string, limit: number) {
  const limiter = limit > 0 ? new RateLimiterMemory({ keyPrefix: name, points: limit, duration: 60 }) : null;
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

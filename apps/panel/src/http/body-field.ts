import type { FastifyRequest } from 'fastify';

/** One field of the raw JSON body, before any validation (e.g. the password that authorises a change). */
export const bodyField = (request: FastifyRequest, field: string): unknown => {
  const body = request.body;
  return typeof body === 'object' && body !== null && !Array.isArray(body)
    ? (body as Record<string, unknown>)[field]
    : undefined;
};

import { REQUESTED_WITH_HEADER, REQUESTED_WITH_VALUE } from '@aerie/shared/boot/page-globals';
import type { FastifyRequest } from 'fastify';

/** Laravel's expectsJson(): an XHR from the SPA, or an Accept header naming JSON (`/json` or `+json`). */
export function expectsJson(request: FastifyRequest): boolean {
  if (request.headers[REQUESTED_WITH_HEADER] === REQUESTED_WITH_VALUE) return true;
  const accept = request.headers.accept ?? '';
  return /\/json|\+json/i.test(accept);
}

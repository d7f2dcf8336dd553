import { type AdmissionLimits, admitRequests, RETRY_AFTER_SECONDS } from '@aerie/shared/net/admission';
import type { FastifyInstance, FastifyRequest } from 'fastify';

export const OVERLOADED_MESSAGE =
  'The daemon is too busy to take this request right now. Please try again in a moment.';

/** What keeps a node usable under load: console websockets (the panel's users) and the panel's health check. */
const RESERVED = [/^GET \/api\/servers\/[^/?]+\/ws(?:\?|$)/, /^GET \/api\/system(?:\?|$)/];

export const isReservedRequest = (request: FastifyRequest) =>
  RESERVED.some((pattern) => pattern.test(`${request.method} ${request.url}`));

/** The daemon's admission control: 503 `{"error": …}` with Retry-After, before the node token is even read. */
export function admitDaemonRequests(app: FastifyInstance, limits: AdmissionLimits) {
  return admitRequests(app, limits, {
    reserved: isReservedRequest,
    refuse: (reply) =>
      reply
        .status(503)
        .header('retry-after', String(RETRY_AFTER_SECONDS))
        .send({ error: OVERLOADED_MESSAGE }),
  });
}

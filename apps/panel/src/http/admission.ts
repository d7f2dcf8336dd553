import { sendError } from '@aerie/panel/http/error-handler';
import { overloaded } from '@aerie/panel/http/errors';
import { type AdmissionLimits, admitRequests, RETRY_AFTER_SECONDS } from '@aerie/shared/net/admission';
import type { FastifyInstance, FastifyRequest } from 'fastify';

/**
 * What an operator needs on a loaded panel: signing in (and its two-factor step), a console's websocket credentials,
 * and a daemon's SFTP login check; and the web app's own files and translations, cheap to send, without which a page
 * that did load would break instead of showing the API's refusals. They are admitted while the event loop is behind
 * and keep a share of the requests in flight.
 */
const RESERVED = [
  /^GET \/(?:assets|locales)\//,
  /^POST \/auth\/login(?:\/checkpoint)?(?:\?|$)/,
  /^GET \/api\/client\/servers\/[^/?]+\/websocket(?:\?|$)/,
  /^POST \/api\/remote\/sftp\/auth(?:\?|$)/,
];

export const isReservedRequest = (request: FastifyRequest) =>
  RESERVED.some((pattern) => pattern.test(`${request.method} ${request.url}`));

// Made once: a refusal must cost next to nothing.
const refusal = overloaded(RETRY_AFTER_SECONDS);

/**
 * The panel's admission control (packages/shared/src/net/admission.ts): 503 in the API's error envelope with
 * Retry-After, before the session is read or anything else is done. Call before any other hook.
 */
export function admitPanelRequests(app: FastifyInstance, limits: AdmissionLimits) {
  return admitRequests(app, limits, {
    reserved: isReservedRequest,
    refuse: (reply) => sendError(reply, refusal),
  });
}

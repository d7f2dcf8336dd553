import { errorMessages } from '@aerie/shared/errors/error-envelope';
import type { FastifyInstance } from 'fastify';
import { badRequest } from './errors';

/**
 * JSON bodies, including `application/*+json` (e.g. `application/vnd.pterodactyl.v1+json`). An empty body is no
 * body (the SPA sends Content-Type only with one, other clients are less careful); malformed JSON is the
 * reference's 400 BadRequestHttpException, worded like PHP's json_last_error_msg.
 */
export function registerJsonBodyParser(app: FastifyInstance): void {
  app.removeContentTypeParser(['application/json']);
  app.addContentTypeParser(
    /^application\/([\w.-]+\+)?json(\s*;.*)?$/i,
    { parseAs: 'string' },
    (_request, body, done) => {
      const text = String(body);
      if (text.trim() === '') return done(null, undefined);
      try {
        done(null, JSON.parse(text));
      } catch {
        done(badRequest(`${errorMessages.malformedJson}Syntax error`), undefined);
      }
    },
  );
}

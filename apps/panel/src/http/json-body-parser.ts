import { errorMessages } from '@aerie/shared/errors/error-envelope';
import type { FastifyInstance } from 'fastify';
import { badRequest } from './errors';
import { pathPastDepth } from './nesting';

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
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        return done(badRequest(`${errorMessages.malformedJson}Syntax error`), undefined);
      }
      // PHP's json_decode stops at 512 levels with this error; no route reads past a few, and code that walks a body
      // (trimming, validation) recurses, so a 1 MiB `[[[[…` would overflow its stack. Refused here, for every route.
      if (pathPastDepth(parsed, MAX_JSON_DEPTH - 1))
        return done(badRequest(`${errorMessages.malformedJson}Maximum stack depth exceeded`), undefined);
      done(null, parsed);
    },
  );
}

/** How deep a body may nest (objects and arrays); Laravel's clients never come near it. */
export const MAX_JSON_DEPTH = 64;

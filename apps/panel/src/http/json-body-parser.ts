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
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        return done(badRequest(`${errorMessages.malformedJson}Syntax error`), undefined);
      }
      // PHP's json_decode stops at 512 levels with this error; no route reads past a few, and code that walks a body
      // (trimming, validation) recurses, so a 1 MiB `[[[[…` would overflow its stack. Refused here, for every route.
      if (nestedDeeperThan(parsed, MAX_JSON_DEPTH))
        return done(badRequest(`${errorMessages.malformedJson}Maximum stack depth exceeded`), undefined);
      done(null, parsed);
    },
  );
}

/** How deep a body may nest (objects and arrays); Laravel's clients never come near it. */
export const MAX_JSON_DEPTH = 64;

/** Whether `value` nests objects or arrays more than `limit` levels, found without recursion (linear time). */
function nestedDeeperThan(value: unknown, limit: number): boolean {
  const stack: [unknown, number][] = [[value, 1]];
  for (let entry = stack.pop(); entry; entry = stack.pop()) {
    const [node, depth] = entry;
    if (typeof node !== 'object' || node === null) continue;
    if (depth > limit) return true;
    for (const child of Object.values(node))
      if (typeof child === 'object' && child !== null) stack.push([child, depth + 1]);
  }
  return false;
}

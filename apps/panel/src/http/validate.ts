import type { ApiErrorItem } from '@aerie/shared/errors/error-envelope';
import type { LaravelRule } from '@aerie/shared/validation/laravel-messages';
import { normalizeInput } from '@aerie/shared/validation/normalize-input';
import { toValidationErrors } from '@aerie/shared/validation/validation-errors';
import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { notFound, validationFailed } from './errors';

/**
 * Validates a request body against a shared schema the way Laravel does: strings trimmed (not passwords),
 * empty strings as null, then one 422 entry per failed rule.
 * @throws HttpError 422 ValidationException
 */
export function validateBody<S extends z.ZodObject>(
  schema: S,
  body: unknown,
  options: {
    /**
     * Checks that run after the rules, whatever their outcome, like Laravel's `$validator->after()` hooks: their
     * entries come after the rules' ones (and carry an empty `meta.rule`).
     */
    after?: (input: Record<string, unknown>) => ApiErrorItem[];
    /** false: keep surrounding spaces (the files routes, where Laravel skips TrimStrings). */
    trimStrings?: boolean;
    /** Custom attribute names of the request, as Laravel's `attributes()` (`short` → "Location Identifier"). */
    attributes?: Readonly<Record<string, string>>;
  } = {},
): z.output<S> {
  const input = normalizeInput(body, { trim: options.trimStrings ?? true });
  const result = schema.safeParse(input);
  const later = options.after?.(input) ?? [];
  if (result.success && later.length === 0) return result.data;
  const items = result.success
    ? []
    : toValidationErrors(result.error.issues, Object.keys(schema.shape), options.attributes);
  throw validationFailed([...items, ...later]);
}

/**
 * A 422 for one field and rule decided outside the schema (a `unique` or `exists` rule that needs the
 * database), worded as the schema's own failures.
 */
export function fieldRuleFailed(
  field: string,
  rule: LaravelRule,
  attributes: Readonly<Record<string, string>> = {},
) {
  return validationFailed(toValidationErrors([{ path: field.split('.'), message: rule }], [], attributes));
}

/** A route's numeric id parameter (`{user:id}`); anything else is a missing resource. */
export function idParam(value: unknown): number {
  if (typeof value !== 'string' || !/^\d{1,10}$/.test(value)) throw notFound();
  const id = Number(value);
  if (id < 1 || id > 2_147_483_647) throw notFound();
  return id;
}

/**
 * Validates the body against the route's own `config.body` schema, the one the API documentation shows, so the
 * rules are declared once per route.
 * @throws Error when the route declares no body schema (a programming error)
 */
export function validateRouteBody<S extends z.ZodObject>(
  request: FastifyRequest,
  options: Parameters<typeof validateBody>[2] = {},
): z.output<S> {
  const schema = request.routeOptions.config?.body;
  if (!schema) throw new Error(`${request.method} ${request.routeOptions.url} declares no body schema`);
  return validateBody(schema as S, request.body, options);
}

/**
 * Validates the query string against the route's own `config.query` schema, the one the API documentation lists
 * as query parameters, with the same options as `validateBody`.
 * @throws Error when the route declares no query schema (a programming error)
 */
export function validateRouteQuery<S extends z.ZodObject>(
  request: FastifyRequest,
  options: Parameters<typeof validateBody>[2] = {},
): z.output<S> {
  const schema = request.routeOptions.config?.query;
  if (!schema) throw new Error(`${request.method} ${request.routeOptions.url} declares no query schema`);
  return validateBody(schema as S, request.query, options);
}

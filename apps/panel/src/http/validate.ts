import type { ApiErrorItem } from '@aerie/shared/errors/error-envelope';
import { normalizeInput } from '@aerie/shared/validation/normalize-input';
import { toValidationErrors } from '@aerie/shared/validation/validation-errors';
import type { z } from 'zod';
import { validationFailed } from './errors';

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
  } = {},
): z.output<S> {
  const input = normalizeInput(body, { trim: options.trimStrings ?? true });
  const result = schema.safeParse(input);
  const later = options.after?.(input) ?? [];
  if (result.success && later.length === 0) return result.data;
  const items = result.success ? [] : toValidationErrors(result.error.issues, Object.keys(schema.shape));
  throw validationFailed([...items, ...later]);
}

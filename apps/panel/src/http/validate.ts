import { normalizeInput } from '@aerie/shared/validation/normalize-input';
import { toValidationErrors } from '@aerie/shared/validation/validation-errors';
import type { z } from 'zod';
import { validationFailed } from './errors';

/**
 * Validates a request body against a shared schema the way Laravel does: strings trimmed (not passwords),
 * empty strings as null, then one 422 entry per failed rule.
 * @throws HttpError 422 ValidationException
 */
export function validateBody<S extends z.ZodObject>(schema: S, body: unknown): z.output<S> {
  const result = schema.safeParse(normalizeInput(body));
  if (result.success) return result.data;
  throw validationFailed(toValidationErrors(result.error.issues, Object.keys(schema.shape)));
}

import { normalizeInput } from '@aerie/shared/validation/normalize-input';
import { toValidationErrors } from '@aerie/shared/validation/validation-errors';
import type { FieldErrors, FieldValues, Path, Resolver, UseFormReturn } from 'react-hook-form';
import type { z } from 'zod';
import { ApiError } from '@/lib/api-client';

/**
 * Forms whose rules are the API body's own (`@aerie/shared/eggs/egg-bodies`): the values become the body, the body
 * is read as the panel reads it and checked by the shared schema, and each failure lands on the form field its
 * `source_field` belongs to, in the API's wording. The server's 422 answers are placed the same way.
 */
export interface BodyForm<F extends FieldValues> {
  toBody: (values: F) => Record<string, unknown>;
  /** The form field of an error's `source_field` (`docker_images.Java` → `dockerImages`). */
  fieldOf: (sourceField: string) => Path<F> | undefined;
}

export function bodyResolver<F extends FieldValues>(
  schema: z.ZodObject,
  form: BodyForm<F>,
  options: { trim?: boolean } = {},
): Resolver<F> {
  return async (values) => {
    const result = schema.safeParse(normalizeInput(form.toBody(values), { trim: options.trim ?? true }));
    if (result.success) return { values, errors: {} };
    const errors: Record<string, { type: string; message: string }> = {};
    for (const item of toValidationErrors(result.error.issues, Object.keys(schema.shape))) {
      const field = form.fieldOf(item.meta?.source_field ?? '');
      if (field && !errors[field])
        errors[field] = { type: item.meta?.rule || 'custom', message: item.detail };
    }
    return { values: {}, errors: errors as FieldErrors<F> };
  };
}

/**
 * Puts a 422's entries on their fields. Returns false when the error is something else (or names no field of the
 * form), for the caller to show it as a flash.
 */
export function applyServerErrors<F extends FieldValues>(
  form: UseFormReturn<F>,
  fieldOf: BodyForm<F>['fieldOf'],
  error: unknown,
): boolean {
  if (!(error instanceof ApiError) || error.status !== 422) return false;
  const items = (
    error.body as { errors?: { detail: string; meta?: { source_field?: string } }[] } | undefined
  )?.errors;
  let placed = false;
  for (const item of items ?? []) {
    const field = fieldOf(item.meta?.source_field ?? '');
    if (!field) continue;
    form.setError(field, { type: 'server', message: item.detail }, { shouldFocus: !placed });
    placed = true;
  }
  return placed;
}

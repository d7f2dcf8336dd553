import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { ApiError } from '@/lib/api-client';
import { flashActions } from '@/stores/flash-store';

interface ValidationEntry {
  detail?: unknown;
  meta?: { source_field?: unknown };
}

/**
 * The messages of a 422 answer by the field they name (`meta.source_field`; `ports.0` counts for `ports`), the
 * first message of each field only. Empty for any other error.
 */
export function validationMessages(error: unknown): Map<string, string> {
  const messages = new Map<string, string>();
  if (!(error instanceof ApiError) || error.status !== 422) return messages;
  const entries = (error.body as { errors?: unknown } | undefined)?.errors;
  if (!Array.isArray(entries)) return messages;
  for (const entry of entries as ValidationEntry[]) {
    const field = entry?.meta?.source_field;
    if (typeof field !== 'string' || typeof entry.detail !== 'string') continue;
    const root = field.split('.')[0] ?? field;
    if (!messages.has(root)) messages.set(root, entry.detail);
  }
  return messages;
}

/**
 * Shows a 422's messages under the form's own fields. `fields` maps the API's field names to the form's. Answers
 * whether any message landed on a field: when none did, the caller shows the error as a flash instead.
 */
export function applyFieldErrors<T extends FieldValues>(
  error: unknown,
  setError: UseFormSetError<T>,
  fields: Readonly<Record<string, Path<T>>>,
): boolean {
  let applied = false;
  for (const [field, message] of validationMessages(error)) {
    const target = fields[field];
    if (!target) continue;
    setError(target, { type: 'server', message }, { shouldFocus: !applied });
    applied = true;
  }
  return applied;
}

/**
 * Shows a failed save the way every admin form does: a 422's messages under the form's own fields, anything else
 * (or a 422 naming no field of the form) as a flash under `flashKey`.
 */
export function showSaveError<T extends FieldValues>(
  error: unknown,
  setError: UseFormSetError<T>,
  fields: Readonly<Record<string, Path<T>>>,
  flashKey: string,
): void {
  if (!applyFieldErrors(error, setError, fields))
    flashActions().clearAndAddHttpError({ key: flashKey, error });
}

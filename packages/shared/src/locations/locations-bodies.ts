import { z } from 'zod';
import { nullableString, requiredString } from '../validation/rules';

/** POST/PATCH /api/application/locations (reference application API §3.2); PATCH sends every field again. */
export const locationBodySchema = z.object({
  short: requiredString().refine((value) => value.length >= 1 && value.length <= 60, {
    error: 'between',
    params: { min: 1, max: 60 },
  }),
  long: nullableString().refine((value) => value == null || value.length <= 191, {
    error: 'between',
    params: { min: 1, max: 191 },
  }),
});

/** Laravel's attribute names of these requests. */
export const locationAttributeNames = { short: 'Location Identifier', long: 'Location Description' } as const;

export const locationMessages = {
  hasNodes: 'Cannot delete a location that has active nodes attached to it.',
} as const;

export type LocationBody = z.output<typeof locationBodySchema>;

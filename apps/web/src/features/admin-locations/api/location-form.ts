import { locationAttributeNames } from '@aerie/shared/locations/locations-bodies';
import { laravelMessages } from '@aerie/shared/validation/laravel-messages';
import { z } from 'zod';
import type { AdminLocation, LocationBody } from '@/features/admin-locations/api/locations';

const { short, long } = locationAttributeNames;

/** The location form, with the API's rules and wording (reference application API §3.2). */
export const locationFormSchema = z.object({
  short: z
    .string()
    .trim()
    .min(1, { error: laravelMessages.required(short), abort: true })
    .max(60, laravelMessages.between(short, { min: 1, max: 60 })),
  long: z
    .string()
    .trim()
    .max(191, laravelMessages.between(long, { min: 1, max: 191 })),
});

export type LocationFormValues = z.infer<typeof locationFormSchema>;

export const locationFormValues = (location?: AdminLocation): LocationFormValues => ({
  short: location?.short ?? '',
  long: location?.long ?? '',
});

/** A blank description is sent as null (no description). */
export const toLocationBody = (values: LocationFormValues): LocationBody => ({
  short: values.short.trim(),
  long: values.long.trim() === '' ? null : values.long.trim(),
});

export const locationFormFields = { short: 'short', long: 'long' } as const;

import { z } from 'zod';
import type { LaravelRule } from '../validation/laravel-messages';
import { requiredString, rule } from '../validation/rules';
import { apiKeyLimits } from './api-keys-wire';
import { accessLevels, adminResources, applicationKeyLimits } from './application-keys-wire';

const access = z.preprocess(
  (value) => (typeof value === 'string' && /^\d$/.test(value) ? Number(value) : value),
  z
    .number({ error: 'integer' satisfies LaravelRule })
    .int(rule('integer'))
    .refine((value) => (accessLevels as readonly number[]).includes(value), rule('in')),
);

/**
 * POST /api/application/api-keys: `memo` required|string|max:500, `allowed_ips` as account keys, and
 * `r_<resource>` 0–3 for each resource (absent = 0).
 */
export const createApplicationKeyBodySchema = z.object({
  memo: requiredString().max(applicationKeyLimits.memoMax, rule('max')),
  allowed_ips: z
    .array(z.string({ error: 'string' satisfies LaravelRule }), { error: 'array' satisfies LaravelRule })
    .max(apiKeyLimits.allowedIpsMax, rule('max'))
    .nullish(),
  ...(Object.fromEntries(adminResources.map((resource) => [`r_${resource}`, access.optional()])) as Record<
    `r_${(typeof adminResources)[number]}`,
    z.ZodOptional<typeof access>
  >),
});

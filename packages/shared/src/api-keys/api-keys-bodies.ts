import { z } from 'zod';
import type { LaravelRule } from '../validation/laravel-messages';
import { requiredString, rule } from '../validation/rules';
import { apiKeyLimits } from './api-keys-wire';

/**
 * POST /api/client/account/api-keys: `description` required|string|min:4|max:500 (the minimum is the spec's, §5:
 * the panel enforces every rule the form does), `allowed_ips` nullable|array|max:50, each entry a string. Whether
 * each entry is an IP or CIDR range is checked by the panel afterwards. The form (api-keys-forms.ts) reads the same
 * {@link apiKeyLimits}.
 */
export const createApiKeyBodySchema = z.object({
  description: requiredString()
    .min(apiKeyLimits.descriptionMin, rule('min'))
    .max(apiKeyLimits.descriptionMax, rule('max')),
  allowed_ips: z
    .array(z.string({ error: 'string' satisfies LaravelRule }), { error: 'array' satisfies LaravelRule })
    .max(apiKeyLimits.allowedIpsMax, rule('max'))
    .nullish(),
});

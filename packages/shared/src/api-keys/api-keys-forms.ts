import { z } from 'zod';
import { apiKeyLimits } from './api-keys-wire';

/**
 * What the API-key form checks before anything is sent (the API's own rules are in api-keys-bodies.ts). The spec
 * only names the rules; the words are ours.
 */
export const apiKeyMessages = {
  descriptionRequired: 'A description of the key is required.',
  descriptionMin: 'The description must be at least 4 characters.',
  descriptionMax: 'The description may not be greater than 500 characters.',
} as const;

/** Length rules of the form: the API's own (spec section 9), so the panel refuses what the form refuses. */
export const apiKeyFormLimits = {
  descriptionMin: apiKeyLimits.descriptionMin,
  descriptionMax: apiKeyLimits.descriptionMax,
} as const;

export const createApiKeyFormSchema = z.object({
  description: z
    .string()
    .trim()
    .min(1, { error: apiKeyMessages.descriptionRequired, abort: true })
    .min(apiKeyFormLimits.descriptionMin, apiKeyMessages.descriptionMin)
    .max(apiKeyFormLimits.descriptionMax, apiKeyMessages.descriptionMax),
  /** One address or CIDR range per line; blank lets any address use the key. */
  allowedIps: z.string(),
});
export type CreateApiKeyFormValues = z.infer<typeof createApiKeyFormSchema>;

/** The textarea's lines as the API's `allowed_ips` array: trimmed, blank lines dropped, [] when empty. */
export const splitAllowedIps = (text: string): string[] =>
  text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '');

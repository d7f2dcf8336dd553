import { z } from 'zod';
import { present } from '../validation/laravel-fields';
import { requiredString } from '../validation/rules';

/** The Startup page saves a variable this long after the last key-up (spec §5, §9). */
export const startupLimits = { variableDebounceMs: 500 } as const;

/**
 * PUT …/startup/variable: `key` required|string, `value` present (any type the variable's own rules then judge;
 * null and "" store no value). The value is checked against the egg variable's rule string afterwards.
 */
export const startupVariableBodySchema = z.object({
  key: requiredString(),
  value: present(z.unknown()),
});

/** Error details of the startup routes, word for word from the reference (§7.2 "Startup and settings"). */
export const startupMessages = {
  variableMissing: 'The environment variable you are trying to edit does not exist.',
  variableReadOnly: 'The environment variable you are trying to edit is read-only.',
} as const;

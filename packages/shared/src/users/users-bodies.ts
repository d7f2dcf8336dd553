import { z } from 'zod';
import { isLanguage } from '../languages/languages';
import { nullableText } from '../validation/laravel-fields';
import type { LaravelRule } from '../validation/laravel-messages';
import { lengthBetween, nullableString, requiredEmail, requiredString, rule } from '../validation/rules';

/** Pterodactyl's `p_username` rule: the lower-cased value starts and ends alphanumeric, `\w . -` in between. */
const USERNAME = /^[a-z0-9]([\w.-]+)[a-z0-9]$/;

export const userMessages = {
  /** `p_username`'s message; `:attribute` as Laravel fills it in. */
  username: (attribute: string) =>
    `The ${attribute} must start and end with alpha-numeric characters and contain only letters, numbers, dashes, underscores, and periods.`,
  hasServers:
    'Cannot delete a user with active servers attached to their account. Please delete their servers before continuing.',
} as const;

/** The message the username check fails with (not a Laravel rule name, so it reaches the client as is). */
export const usernameRuleMessage = userMessages.username('username');

/**
 * `required|between:1,191` + `p_username`. A number is read as its digits (the rule has no `string`); the
 * value comes out lower-cased, as it is stored.
 */
const username = () =>
  z
    .preprocess(
      (value) => (typeof value === 'number' && Number.isFinite(value) ? String(value) : value),
      requiredString()
        .refine(...lengthBetween(1, 191))
        .refine((value) => USERNAME.test(value.toLowerCase()), { error: usernameRuleMessage }),
    )
    .transform((value) => value.toLowerCase());

/** Laravel's `boolean` without `required`/`nullable`: absent passes, null fails. */
const optionalBoolean = () =>
  z
    .preprocess(
      (value) => {
        if (value === 1 || value === '1') return true;
        if (value === 0 || value === '0') return false;
        return value;
      },
      z.boolean({ error: 'boolean' satisfies LaravelRule }),
    )
    .optional();

/**
 * POST /api/application/users and PATCH /api/application/users/{id} (reference application API §3.1), in the
 * order upstream's rules run (so its 422 entries come in that order). PATCH sends every required field again;
 * the three `unique` rules (email, external_id, username) need the database and are checked by the panel.
 */
export const userBodySchema = z.object({
  email: requiredEmail().refine(...lengthBetween(1, 191)),
  /** `sometimes|nullable|string|max:191`: absent leaves it unchanged, null clears it. */
  external_id: nullableText(191),
  username: username(),
  /** `sometimes|nullable|string`; absent or null keeps the current password (or, on create, mails a link). */
  password: nullableString(),
  root_admin: optionalBoolean(),
  /** `string` + one of the installed languages. */
  language: z
    .string({ error: 'string' satisfies LaravelRule })
    .refine((value) => isLanguage(value), rule('in'))
    .optional(),
  first_name: requiredString().refine(...lengthBetween(1, 191)),
  last_name: requiredString().refine(...lengthBetween(1, 191)),
});

/** Laravel's attribute names of these requests (others: the field name, underscores as spaces). */
export const userAttributeNames = {
  external_id: 'Third Party Identifier',
  root_admin: 'Root Administrator Status',
} as const;

export type UserBody = z.output<typeof userBodySchema>;

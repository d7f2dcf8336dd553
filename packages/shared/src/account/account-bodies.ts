import { z } from 'zod';
import { isLanguage } from '../languages/languages';
import { limits } from '../limits';
import type { LaravelRule } from '../validation/laravel-messages';
import { lengthBetween, requiredEmail, requiredString, rule } from '../validation/rules';

/**
 * Server-side rules of the account API bodies (after `normalizeInput`), producing the reference's 422 entries.
 * Passwords that authorise a change (`password` of the email form, `current_password`) are checked by the panel
 * BEFORE these rules run, as Pterodactyl does, so they are not part of the schemas.
 */

/** PUT /api/client/account/email: `email` required|email|between:1,191 (uniqueness is checked by the panel). */
export const updateEmailBodySchema = z.object({
  email: requiredEmail().refine(...lengthBetween(1, 191)),
});

/** PUT /api/client/account/language (Aerie's own): `language` required|string|in:<the shipped languages>. */
export const updateLanguageBodySchema = z.object({
  language: requiredString().refine((value) => isLanguage(value), rule('in')),
});

/** PUT /api/client/account/password: `password` required|string|confirmed|min:8, reported in that order. */
export const updatePasswordBodySchema = z
  .object({
    password: requiredString(),
    password_confirmation: z.unknown().optional(),
  })
  .superRefine((body, ctx) => {
    if (body.password !== body.password_confirmation) {
      ctx.addIssue({ code: 'custom', path: ['password'], message: 'confirmed' satisfies LaravelRule });
    }
    if (body.password.length < limits.passwordMinLength) {
      ctx.addIssue({
        code: 'custom',
        path: ['password'],
        message: 'min' satisfies LaravelRule,
        params: { min: limits.passwordMinLength },
      });
    }
  });

/** POST /api/client/account/two-factor: `code` required|string|size:6, `password` required|string. */
export const enableTwoFactorBodySchema = z.object({
  code: requiredString().length(6, rule('size')),
  password: requiredString(),
});

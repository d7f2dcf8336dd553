import { z } from 'zod';
import { limits } from '../limits';
import type { LaravelRule } from '../validation/laravel-messages';
import { nullableNumeric, nullableString, requiredEmail, requiredString, rule } from '../validation/rules';

/**
 * Server-side rules of the /auth request bodies (after `normalizeInput`). The SPA's forms have their own,
 * friendlier messages in auth/auth-forms.ts; these produce the API's 422 entries.
 */

/** POST /auth/login: `user` is a username, or an email when it contains '@'. */
export const loginBodySchema = z.object({
  user: requiredString(),
  password: requiredString(),
});

/** POST /auth/login/checkpoint: a TOTP code or, failing that, a recovery token. */
export const checkpointBodySchema = z
  .object({
    confirmation_token: requiredString(),
    authentication_code: nullableNumeric(),
    recovery_token: nullableString(),
  })
  .superRefine(
    (body, ctx) => {
      // Laravel's Rule::requiredIf on both fields: one of them must be present.
      if (body.authentication_code == null && body.recovery_token == null) {
        for (const field of ['authentication_code', 'recovery_token']) {
          ctx.addIssue({ code: 'custom', path: [field], message: 'required' satisfies LaravelRule });
        }
      }
    },
    // Run even when another field failed, so every missing field is reported at once.
    { when: () => true },
  );

/** POST /auth/password */
export const forgotPasswordBodySchema = z.object({
  email: requiredEmail(),
});

/** POST /auth/password/reset */
export const resetPasswordBodySchema = z
  .object({
    token: requiredString(),
    email: requiredEmail(),
    password: requiredString().min(limits.passwordMinLength, rule('min')),
    password_confirmation: z.unknown().optional(),
  })
  .superRefine(
    (body, ctx) => {
      if (typeof body.password === 'string' && body.password !== body.password_confirmation) {
        ctx.addIssue({ code: 'custom', path: ['password'], message: 'confirmed' satisfies LaravelRule });
      }
    },
    { when: () => true },
  );

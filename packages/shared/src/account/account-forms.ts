import { z } from 'zod';
import { limits } from '../limits';

/**
 * What the account pages' forms check before anything is sent (the API's own rules are in account-bodies.ts,
 * its wire shapes in account-wire.ts).
 *
 * Form validation messages of the account pages. Those the spec words (section 5) are word for word; the
 * others (new password, email) are ours, since the spec only names the rule.
 */
export const accountMessages = {
  currentPasswordRequired: 'You must provide your current password.',
  newPasswordRequired: 'You must provide a new password.',
  newPasswordMin: 'Your new password should be at least 8 characters in length.',
  passwordConfirmationMismatch: 'Password confirmation does not match the password you entered.',
  emailInvalid: 'You must provide a valid email address.',
  emailPasswordRequired: 'You must provide your current account password.',
  twoFactorCodeRequired: 'You must provide an authentication code to continue.',
  twoFactorCodeDigits: 'Authenticator code must be 6 digits.',
  twoFactorPasswordRequired: 'You must provide your current password in order to continue.',
  /** Success flash of the email form (spec section 8). */
  emailUpdated: 'Your primary email has been updated.',
} as const;

/** Length rules of the account forms (spec section 9). */
export const accountLimits = {
  twoFactorCodeLength: 6,
} as const;

export const updatePasswordFormSchema = z
  .object({
    currentPassword: z.string().min(1, accountMessages.currentPasswordRequired),
    password: z
      .string()
      // Stop at the first failure so an empty field shows one message.
      .min(1, { error: accountMessages.newPasswordRequired, abort: true })
      .min(limits.passwordMinLength, accountMessages.newPasswordMin),
    passwordConfirmation: z.string(),
  })
  .superRefine(
    (values, ctx) => {
      if (values.password !== values.passwordConfirmation) {
        ctx.addIssue({
          code: 'custom',
          path: ['passwordConfirmation'],
          message: accountMessages.passwordConfirmationMismatch,
        });
      }
    },
    // Compare even while another field is invalid, so the mismatch shows as soon as it exists.
    { when: () => true },
  );
export type UpdatePasswordFormValues = z.infer<typeof updatePasswordFormSchema>;

export const updateEmailFormSchema = z.object({
  email: z.string().trim().pipe(z.email(accountMessages.emailInvalid)),
  password: z.string().min(1, accountMessages.emailPasswordRequired),
});
export type UpdateEmailFormValues = z.infer<typeof updateEmailFormSchema>;

export const enableTwoFactorFormSchema = z.object({
  code: z
    .string()
    .min(1, { error: accountMessages.twoFactorCodeRequired, abort: true })
    .regex(/^\d{6}$/, accountMessages.twoFactorCodeDigits),
  password: z.string().min(1, accountMessages.twoFactorPasswordRequired),
});
export type EnableTwoFactorFormValues = z.infer<typeof enableTwoFactorFormSchema>;

export const disableTwoFactorFormSchema = z.object({
  password: z.string().min(1, accountMessages.twoFactorPasswordRequired),
});
export type DisableTwoFactorFormValues = z.infer<typeof disableTwoFactorFormSchema>;

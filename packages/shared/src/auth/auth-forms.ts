import { z } from 'zod';
import type { PageUser } from '../boot/page-globals';
import { limits } from '../limits';

/** Form validation messages of the sign-in area, word for word from the spec (section 5). */
export const authMessages = {
  usernameRequired: 'A username or email must be provided.',
  passwordRequired: 'Please enter your account password.',
  emailRequired: 'A valid email address must be provided to continue.',
  newPasswordRequired: 'A new password is required.',
  newPasswordMin: 'Your new password should be at least 8 characters in length.',
  confirmationMismatch: 'Your new password does not match.',
  loginNotObject: 'An error occurred while processing the login request.',
} as const;

export const loginFormSchema = z.object({
  username: z.string().min(1, authMessages.usernameRequired),
  password: z.string().min(1, authMessages.passwordRequired),
});
export type LoginFormValues = z.infer<typeof loginFormSchema>;

export const forgotPasswordFormSchema = z.object({
  email: z.string().min(1, authMessages.emailRequired).pipe(z.email(authMessages.emailRequired)),
});
export type ForgotPasswordFormValues = z.infer<typeof forgotPasswordFormSchema>;

export const resetPasswordFormSchema = z
  .object({
    password: z
      .string()
      // Stop at the first failure so an empty field shows one message, as the spec's forms do.
      .min(1, { error: authMessages.newPasswordRequired, abort: true })
      .min(limits.passwordMinLength, authMessages.newPasswordMin),
    passwordConfirmation: z.string().min(1, authMessages.confirmationMismatch),
  })
  .refine((v) => v.password === v.passwordConfirmation, {
    message: authMessages.confirmationMismatch,
    path: ['passwordConfirmation'],
  });
export type ResetPasswordFormValues = z.infer<typeof resetPasswordFormSchema>;

/** POST /auth/login body. `user` is a username, or an email when it contains '@'. */
export interface LoginBody {
  user: string;
  password: string;
  'g-recaptcha-response'?: string | null;
}

/** POST /auth/login and /auth/login/checkpoint answer. */
export interface LoginResponse {
  data: {
    complete: boolean;
    intended?: string;
    confirmation_token?: string;
    user?: PageUser;
  };
}

/** POST /auth/login/checkpoint body: a TOTP code, or a recovery token when the user lost the device. */
export interface CheckpointBody {
  confirmation_token: string;
  authentication_code?: string;
  recovery_token?: string;
}

export interface ForgotPasswordBody {
  email: string;
  'g-recaptcha-response'?: string | null;
}

export interface ForgotPasswordResponse {
  status: string;
}

export interface ResetPasswordBody {
  email: string;
  token: string;
  password: string;
  password_confirmation: string;
}

export interface ResetPasswordResponse {
  success: true;
  redirect_to: string;
  send_to_login: boolean;
}

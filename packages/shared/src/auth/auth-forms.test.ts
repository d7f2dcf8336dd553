import { describe, expect, it } from 'vitest';
import {
  authMessages,
  forgotPasswordFormSchema,
  loginFormSchema,
  resetPasswordFormSchema,
} from './auth-forms';

const messages = (result: { success: boolean; error?: { issues: { message: string }[] } }) =>
  result.success ? [] : (result.error?.issues.map((i) => i.message) ?? []);

describe('sign-in form schemas', () => {
  it('asks for a username and a password with the spec texts', () => {
    expect(messages(loginFormSchema.safeParse({ username: '', password: '' }))).toEqual([
      authMessages.usernameRequired,
      authMessages.passwordRequired,
    ]);
    expect(loginFormSchema.safeParse({ username: 'admin', password: 'x' }).success).toBe(true);
  });

  it.each(['', 'not-an-email', 'a@'])('refuses %j as a reset email', (email) => {
    expect(messages(forgotPasswordFormSchema.safeParse({ email }))).toEqual([authMessages.emailRequired]);
  });

  it('checks the new password length and its confirmation', () => {
    expect(messages(resetPasswordFormSchema.safeParse({ password: '', passwordConfirmation: '' }))).toEqual([
      authMessages.newPasswordRequired,
      authMessages.confirmationMismatch,
    ]);
    expect(
      messages(resetPasswordFormSchema.safeParse({ password: 'short', passwordConfirmation: 'short' })),
    ).toEqual([authMessages.newPasswordMin]);
    expect(
      messages(
        resetPasswordFormSchema.safeParse({ password: 'long enough', passwordConfirmation: 'other one' }),
      ),
    ).toEqual([authMessages.confirmationMismatch]);
  });
});

import { describe, expect, it } from 'vitest';
import { apiKeyMessages, createApiKeyFormSchema, splitAllowedIps } from '../api-keys/api-keys-forms';
import {
  accountMessages,
  enableTwoFactorFormSchema,
  updateEmailFormSchema,
  updatePasswordFormSchema,
} from './account-forms';

const messages = (result: { success: boolean; error?: { issues: { message: string }[] } }) =>
  result.success ? [] : (result.error?.issues.map((issue) => issue.message) ?? []);

describe('account form schemas', () => {
  it.each([
    [
      { currentPassword: '', password: '', passwordConfirmation: '' },
      [accountMessages.currentPasswordRequired, accountMessages.newPasswordRequired],
    ],
    [
      { currentPassword: 'x', password: 'short', passwordConfirmation: 'short' },
      [accountMessages.newPasswordMin],
    ],
    [
      { currentPassword: 'x', password: 'long enough', passwordConfirmation: 'long enougH' },
      [accountMessages.passwordConfirmationMismatch],
    ],
    [{ currentPassword: 'x', password: 'long enough', passwordConfirmation: 'long enough' }, []],
  ])('password change %j → %j', (values, expected) => {
    expect(messages(updatePasswordFormSchema.safeParse(values))).toEqual(expected);
  });

  it.each([
    [{ email: '', password: '' }, [accountMessages.emailInvalid, accountMessages.emailPasswordRequired]],
    [{ email: 'nope', password: 'x' }, [accountMessages.emailInvalid]],
    [{ email: ' casey@example.com ', password: 'x' }, []],
  ])('email change %j → %j', (values, expected) => {
    expect(messages(updateEmailFormSchema.safeParse(values))).toEqual(expected);
  });

  it.each([
    ['', [accountMessages.twoFactorCodeRequired]],
    ['12345', [accountMessages.twoFactorCodeDigits]],
    ['1234567', [accountMessages.twoFactorCodeDigits]],
    ['12a456', [accountMessages.twoFactorCodeDigits]],
    ['123456', []],
  ])('two-factor code %j → %j', (code, expected) => {
    expect(messages(enableTwoFactorFormSchema.safeParse({ code, password: 'x' }))).toEqual(expected);
  });

  it.each([
    ['', [apiKeyMessages.descriptionRequired]],
    ['   ', [apiKeyMessages.descriptionRequired]],
    ['abc', [apiKeyMessages.descriptionMin]],
    ['abcd', []],
    ['a'.repeat(501), [apiKeyMessages.descriptionMax]],
  ])('API key description %j → %j', (description, expected) => {
    expect(messages(createApiKeyFormSchema.safeParse({ description, allowedIps: '' }))).toEqual(expected);
  });

  it.each([
    ['', []],
    ['  \n\n', []],
    ['10.0.0.1', ['10.0.0.1']],
    ['10.0.0.1\r\n 192.168.0.0/24 \n\n::1\n', ['10.0.0.1', '192.168.0.0/24', '::1']],
  ])('allowed IPs %j → %j', (text, expected) => {
    expect(splitAllowedIps(text)).toEqual(expected);
  });
});

import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { createApiKeyBodySchema } from '../api-keys/api-keys-bodies';
import { normalizeInput } from '../validation/normalize-input';
import { toValidationErrors } from '../validation/validation-errors';
import { enableTwoFactorBodySchema, updateEmailBodySchema, updatePasswordBodySchema } from './account-bodies';

const summary = (schema: z.ZodObject, body: unknown) => {
  const result = schema.safeParse(normalizeInput(body));
  return result.success
    ? []
    : toValidationErrors(result.error.issues, Object.keys(schema.shape)).map((e) => [
        e.meta?.source_field,
        e.meta?.rule,
        e.detail,
      ]);
};

describe('account API body rules', () => {
  it('email: required, email and between:1,191, with both bounds in the message', () => {
    expect(summary(updateEmailBodySchema, { email: '  ' })).toEqual([
      ['email', 'required', 'The email field is required.'],
    ]);
    expect(summary(updateEmailBodySchema, { email: 'x'.repeat(192) })).toEqual([
      ['email', 'email', 'The email must be a valid email address.'],
      ['email', 'between', 'The email must be between 1 and 191 characters.'],
    ]);
    expect(summary(updateEmailBodySchema, { email: `${'a'.repeat(179)}@example.com` })).toEqual([]);
  });

  it('password: confirmed before min, as declared', () => {
    expect(summary(updatePasswordBodySchema, { password: 'short', password_confirmation: 'other' })).toEqual([
      ['password', 'confirmed', 'The password confirmation does not match.'],
      ['password', 'min', 'The password must be at least 8 characters.'],
    ]);
    expect(summary(updatePasswordBodySchema, { password: 12345678 })).toEqual([
      ['password', 'string', 'The password must be a string.'],
    ]);
  });

  it('two-factor: code (a string of size 6) before password', () => {
    expect(summary(enableTwoFactorBodySchema, { code: 123456 })).toEqual([
      ['code', 'string', 'The code must be a string.'],
      ['password', 'required', 'The password field is required.'],
    ]);
    expect(summary(enableTwoFactorBodySchema, { code: '1234567', password: 'x' })).toEqual([
      ['code', 'size', 'The code must be 6 characters.'],
    ]);
  });

  it('api keys: an array of at most 50 strings, counted in items', () => {
    expect(
      summary(createApiKeyBodySchema, { description: 'a key', allowed_ips: Array(51).fill('1.1.1.1') }),
    ).toEqual([['allowed_ips', 'max', 'The allowed ips may not have more than 50 items.']]);
    expect(summary(createApiKeyBodySchema, { description: 'a key', allowed_ips: ['1.1.1.1', 7] })).toEqual([
      ['allowed_ips.1', 'string', 'The allowed_ips.1 must be a string.'],
    ]);
    expect(summary(createApiKeyBodySchema, { description: 'a key', allowed_ips: { a: 1 } })).toEqual([
      ['allowed_ips', 'array', 'The allowed ips must be an array.'],
    ]);
  });
});

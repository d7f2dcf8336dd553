import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import {
  checkpointBodySchema,
  forgotPasswordBodySchema,
  loginBodySchema,
  resetPasswordBodySchema,
} from '../auth/auth-bodies';
import { normalizeInput } from './normalize-input';
import { toValidationErrors } from './validation-errors';

const errorsFor = (schema: z.ZodObject, body: unknown) => {
  const result = schema.safeParse(normalizeInput(body));
  return result.success ? [] : toValidationErrors(result.error.issues, Object.keys(schema.shape));
};
const summary = (schema: z.ZodObject, body: unknown) =>
  errorsFor(schema, body).map((e) => [e.meta?.source_field, e.meta?.rule, e.detail]);

describe('Laravel-style validation entries', () => {
  it('reports a missing or empty field as required, with the full envelope entry', () => {
    expect(errorsFor(forgotPasswordBodySchema, { email: '   ' })).toEqual([
      {
        code: 'ValidationException',
        status: '422',
        detail: 'The email field is required.',
        meta: { source_field: 'email', rule: 'required' },
      },
    ]);
    expect(summary(loginBodySchema, {})).toEqual([
      ['user', 'required', 'The user field is required.'],
      ['password', 'required', 'The password field is required.'],
    ]);
  });

  it('treats a body that is not an object as empty', () => {
    expect(summary(loginBodySchema, ['user', 'password'])).toHaveLength(2);
    expect(summary(loginBodySchema, 'text')).toHaveLength(2);
  });

  it('names the rule that failed for wrong types and formats', () => {
    expect(summary(loginBodySchema, { user: 42, password: 'x' })).toEqual([
      ['user', 'string', 'The user must be a string.'],
    ]);
    expect(summary(forgotPasswordBodySchema, { email: 'not-an-email' })).toEqual([
      ['email', 'email', 'The email must be a valid email address.'],
    ]);
  });

  it('lists every failed rule of the reset body in field order, including min and confirmed', () => {
    expect(
      summary(resetPasswordBodySchema, { token: 't', email: 'a@example.com', password: 'short' }),
    ).toEqual([
      ['password', 'min', 'The password must be at least 8 characters.'],
      ['password', 'confirmed', 'The password confirmation does not match.'],
    ]);
    expect(
      summary(resetPasswordBodySchema, { password: 'long enough', password_confirmation: 'other' }),
    ).toEqual([
      ['token', 'required', 'The token field is required.'],
      ['email', 'required', 'The email field is required.'],
      ['password', 'confirmed', 'The password confirmation does not match.'],
    ]);
  });

  it('keeps spaces around passwords but trims other fields', () => {
    const body = {
      token: ' t ',
      email: ' a@example.com ',
      password: ' spaced  ',
      password_confirmation: ' spaced  ',
    };
    expect(resetPasswordBodySchema.parse(normalizeInput(body))).toMatchObject({
      token: 't',
      email: 'a@example.com',
      password: ' spaced  ',
    });
  });

  it('requires a code or a recovery token at the checkpoint, and a numeric code', () => {
    expect(summary(checkpointBodySchema, { confirmation_token: 'x' })).toEqual([
      ['authentication_code', 'required', 'The authentication code field is required.'],
      ['recovery_token', 'required', 'The recovery token field is required.'],
    ]);
    expect(summary(checkpointBodySchema, { authentication_code: 'abc' })).toEqual([
      ['confirmation_token', 'required', 'The confirmation token field is required.'],
      ['authentication_code', 'numeric', 'The authentication code must be a number.'],
    ]);
    expect(summary(checkpointBodySchema, { confirmation_token: 'x', recovery_token: 'abcdefghij' })).toEqual(
      [],
    );
    expect(summary(checkpointBodySchema, { confirmation_token: 'x', authentication_code: 123456 })).toEqual(
      [],
    );
  });
});

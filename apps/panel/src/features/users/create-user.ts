import type { Db } from '@aerie/panel/db/database';
import { isUniqueViolation } from '@aerie/panel/db/dialect';
import { hashPassword } from '@aerie/panel/features/auth/password-hash';
import { limits } from '@aerie/shared/limits';
import { z } from 'zod';
import type { User } from './user';
import { insertUser } from './users.repository';

/** Refusals a person can act on (bad or taken username/email); the message says what to change. */
export class UserInputError extends Error {
  override name = 'UserInputError';
}

const newUserSchema = z.object({
  username: z
    .string()
    .trim()
    .toLowerCase()
    .min(1, 'A username is required.')
    .max(191, 'The username may not be longer than 191 characters.')
    .regex(
      /^[a-z0-9]([\w.-]*[a-z0-9])?$/,
      'The username must start and end with a letter or digit and contain only letters, digits, dots, dashes and underscores.',
    ),
  email: z
    .email('The email must be a valid email address.')
    .max(191, 'The email may not be longer than 191 characters.'),
  password: z
    .string()
    .min(limits.passwordMinLength, `The password must be at least ${limits.passwordMinLength} characters.`),
  rootAdmin: z.boolean(),
});

export type NewUserInput = z.input<typeof newUserSchema>;

/**
 * Creates a user with an argon2id password hash (CLI `aerie user:create` and the first-admin bootstrap).
 * @throws UserInputError when a field is invalid or the username/email is already taken
 */
export async function createUser(db: Db, input: NewUserInput, now = new Date()): Promise<User> {
  const parsed = newUserSchema.safeParse(input);
  if (!parsed.success) throw new UserInputError(parsed.error.issues.map((issue) => issue.message).join(' '));
  const { username, email, password, rootAdmin } = parsed.data;
  try {
    return await insertUser(
      db,
      { username, email, passwordHash: await hashPassword(password), rootAdmin },
      now,
    );
  } catch (error) {
    if (isUniqueViolation(error))
      throw new UserInputError('A user with that username or email already exists.');
    throw error;
  }
}

import { isLanguage, languages } from '@aerie/shared/languages/languages';
import { userMessages } from '@aerie/shared/users/users-bodies';
import { laravelMessages } from '@aerie/shared/validation/laravel-messages';
import { z } from 'zod';
import type { AdminUser, UserBody } from '@/features/admin-users/api/users';

/** Pterodactyl's `p_username` (users-bodies.ts): starts and ends alphanumeric, `\w . -` in between. */
const USERNAME = /^[a-z0-9]([\w.-]+)[a-z0-9]$/;

/** A required text of at most 191 characters, worded as the API words it. */
const text = (attribute: string) =>
  z
    .string()
    .trim()
    .min(1, { error: laravelMessages.required(attribute), abort: true })
    .max(191, laravelMessages.between(attribute, { min: 1, max: 191 }));

/**
 * The create and edit forms of a user, checked before anything is sent with the API's own rules and wording
 * (reference application API §3.1); the panel checks again (and alone knows what is taken).
 */
export const userFormSchema = z.object({
  email: text('email').pipe(z.email(laravelMessages.email('email'))),
  username: text('username').refine((value) => USERNAME.test(value.toLowerCase()), {
    error: userMessages.username('username'),
  }),
  firstName: text('first name'),
  lastName: text('last name'),
  /** Blank: on create the user gets a mail to set one; on edit the password stays as it is. */
  password: z.string(),
  rootAdmin: z.boolean(),
  language: z.enum(languages),
});

export type UserFormValues = z.infer<typeof userFormSchema>;

export const emptyUserForm: UserFormValues = {
  email: '',
  username: '',
  firstName: '',
  lastName: '',
  password: '',
  rootAdmin: false,
  language: 'en',
};

export const userFormValues = (user: AdminUser): UserFormValues => ({
  email: user.email,
  username: user.username,
  firstName: user.firstName,
  lastName: user.lastName,
  password: '',
  rootAdmin: user.rootAdmin,
  language: isLanguage(user.language) ? user.language : 'en',
});

/** The API's body: every required field, the password only when one was typed. */
export function toUserBody(values: UserFormValues): UserBody {
  return {
    email: values.email.trim(),
    username: values.username.trim(),
    first_name: values.firstName.trim(),
    last_name: values.lastName.trim(),
    ...(values.password !== '' ? { password: values.password } : {}),
    root_admin: values.rootAdmin,
    language: values.language,
  };
}

/** The API's field names → the form's, for a 422's messages. */
export const userFormFields = {
  email: 'email',
  username: 'username',
  first_name: 'firstName',
  last_name: 'lastName',
  password: 'password',
  language: 'language',
} as const;

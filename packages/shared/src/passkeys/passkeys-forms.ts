import { z } from 'zod';
import { passkeyLimits } from './passkeys-wire';

/** What the account page's passkey forms check before anything is sent (the API's rules: passkeys-bodies.ts). */
export const passkeyFormMessages = {
  nameRequired: 'A name for the passkey is required.',
  nameTooLong: 'The passkey name must not be longer than 64 characters.',
  passwordRequired: 'Your current password is required.',
} as const;

const passkeyName = () =>
  z
    .string()
    .trim()
    .min(1, passkeyFormMessages.nameRequired)
    .max(passkeyLimits.nameMaxLength, passkeyFormMessages.nameTooLong);

export const addPasskeyFormSchema = z.object({
  name: passkeyName(),
  password: z.string().min(1, passkeyFormMessages.passwordRequired),
});
export type AddPasskeyFormValues = z.infer<typeof addPasskeyFormSchema>;

export const renamePasskeyFormSchema = z.object({ name: passkeyName() });
export type RenamePasskeyFormValues = z.infer<typeof renamePasskeyFormSchema>;

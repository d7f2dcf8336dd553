import { z } from 'zod';

/**
 * What the "Add SSH Key" form checks before anything is sent (the API's rules are in ssh-keys-bodies.ts; whether
 * the text is a usable public key only the panel decides, its 422 texts are `sshKeyMessages`). The spec names no
 * rule here; Pterodactyl's form only requires both fields. The words are ours.
 */
export const sshKeyFormMessages = {
  nameRequired: 'A name for the SSH key is required.',
  publicKeyRequired: 'A public key is required.',
} as const;

export const createSshKeyFormSchema = z.object({
  name: z.string().trim().min(1, sshKeyFormMessages.nameRequired),
  /** An OpenSSH public key line (`ssh-ed25519 AAAA… comment`) or a PEM public key, as pasted. */
  publicKey: z.string().trim().min(1, sshKeyFormMessages.publicKeyRequired),
});
export type CreateSshKeyFormValues = z.infer<typeof createSshKeyFormSchema>;

import { z } from 'zod';
import { databaseDrivers } from './database-hosts-bodies';

/** What the admin area's database host form checks before sending (the API's rules: database-hosts-bodies.ts). */
export const databaseHostFormMessages = {
  nameRequired: 'A name is required.',
  nameMax: 'The name may not be greater than 191 characters.',
  hostRequired: 'The host is required.',
  hostMax: 'The host may not be greater than 191 characters.',
  port: 'The port must be a whole number between 1 and 65535.',
  usernameRequired: 'A username is required.',
  usernameMax: 'The username may not be greater than 32 characters.',
} as const;

const m = databaseHostFormMessages;

/** The form's fields as typed (strings), checked as the API will. A blank password keeps the stored one on edit. */
export const databaseHostFormSchema = z.object({
  name: z.string().trim().min(1, { error: m.nameRequired, abort: true }).max(191, m.nameMax),
  driver: z.enum(databaseDrivers),
  host: z.string().trim().min(1, { error: m.hostRequired, abort: true }).max(191, m.hostMax),
  port: z
    .string()
    .trim()
    .refine((value) => /^\d{1,5}$/.test(value) && Number(value) >= 1 && Number(value) <= 65535, m.port),
  username: z.string().trim().min(1, { error: m.usernameRequired, abort: true }).max(32, m.usernameMax),
  password: z.string(),
  /** A node's id, or '' for none. */
  nodeId: z.string(),
});

export type DatabaseHostFormValues = z.infer<typeof databaseHostFormSchema>;

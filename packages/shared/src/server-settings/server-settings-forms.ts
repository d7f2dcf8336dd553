import { z } from 'zod';
import { serverSettingsLimits } from './server-settings-bodies';

/**
 * What the Settings page's rename form checks before sending (the API's own rules are in server-settings-bodies.ts).
 * The spec gives the rule (server name required, at least 1 character, §5) but no wording; these are ours.
 */
export const serverSettingsFormMessages = {
  nameRequired: 'A server name must be provided.',
  nameMax: `The server name may not be greater than ${serverSettingsLimits.nameMax} characters.`,
} as const;

const m = serverSettingsFormMessages;

export const renameServerFormSchema = z.object({
  name: z
    .string()
    .trim()
    .min(1, { error: m.nameRequired, abort: true })
    .max(serverSettingsLimits.nameMax, m.nameMax),
  description: z.string(),
});

export type RenameServerFormValues = z.infer<typeof renameServerFormSchema>;

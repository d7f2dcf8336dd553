import { z } from 'zod';
import { serverDatabaseLimits } from './databases-bodies';

/**
 * What the Databases page's forms check before sending, in the spec's words (§5). The page's own rule for the
 * name is wider than the API's (it lets periods through; the API answers 422 `alpha_dash` for them).
 */
export const databaseFormMessages = {
  nameRequired: 'A database name must be provided.',
  nameMin: 'Database name must be at least 3 characters.',
  nameMax: 'Database name must not exceed 48 characters.',
  nameChars:
    'Database name should only contain alphanumeric characters, underscores, dashes, and/or periods.',
  remoteRequired: 'A connection value must be provided.',
  remoteInvalid: 'A valid connection address must be provided.',
  deleteConfirm: 'The database name must be provided.',
} as const;

const m = databaseFormMessages;

/** The New Database modal: `databaseName` and `connectionsFrom` (sent as `database` and `remote`). */
export const databaseFormSchema = z.object({
  databaseName: z
    .string()
    .trim()
    .min(1, { error: m.nameRequired, abort: true })
    .min(serverDatabaseLimits.nameMin, m.nameMin)
    .max(serverDatabaseLimits.nameMax, m.nameMax)
    .regex(/^[\w\-.]+$/, m.nameChars),
  connectionsFrom: z
    .string()
    .trim()
    .min(1, { error: m.remoteRequired, abort: true })
    .regex(/^([0-9]{1,3}|%)(\.([0-9]{1,3}|%))?(\.([0-9]{1,3}|%))?(\.([0-9]{1,3}|%))?$/, m.remoteInvalid),
});

export type DatabaseFormValues = z.infer<typeof databaseFormSchema>;

export const databaseFormDefaults: DatabaseFormValues = { databaseName: '', connectionsFrom: '%' };

/** The delete confirmation: the database's name, or the part after its first underscore (`s12_mydb` → `mydb`). */
export const deleteConfirmationMatches = (name: string, typed: string) =>
  typed === name || typed === name.slice(name.indexOf('_') + 1);

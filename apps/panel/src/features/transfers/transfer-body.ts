import { requiredInteger } from '@aerie/shared/validation/laravel-fields';
import type { LaravelRule } from '@aerie/shared/validation/laravel-messages';
import { z } from 'zod';

/** More additional allocations than a transfer may move at once. */
const MAX_ADDITIONAL = 100;

/**
 * `POST /api/application/servers/{id}/transfer` (Pterodactyl's admin transfer form): the node to move to, the
 * primary allocation there, and the additional ones (`nullable`).
 */
export const transferBodySchema = z.object({
  node_id: requiredInteger({ min: 1 }),
  allocation_id: requiredInteger({ min: 1 }),
  allocation_additional: z
    .array(requiredInteger({ min: 1 }), { error: 'array' satisfies LaravelRule })
    .max(MAX_ADDITIONAL, { error: 'max' satisfies LaravelRule })
    .nullish(),
});

export type TransferBody = z.output<typeof transferBodySchema>;

/** `{reason?}` of a daemon's failure report; anything longer than kept is clipped, never refused. */
export const failureReportSchema = z.object({
  reason: z.string({ error: 'string' satisfies LaravelRule }).nullish(),
});

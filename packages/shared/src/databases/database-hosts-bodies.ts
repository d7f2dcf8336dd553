import { z } from 'zod';
import { nullableInteger, requiredInteger } from '../validation/laravel-fields';
import type { LaravelRule } from '../validation/laravel-messages';
import { nullableString, requiredString, rule } from '../validation/rules';

export const databaseDrivers = ['mysql', 'postgres'] as const;

/**
 * POST/PATCH /api/application/database-hosts: the admin form's rules (reference application API §5.1), plus
 * `driver` (MySQL/MariaDB by default, or PostgreSQL). On PATCH an empty password keeps the stored one.
 */
export const databaseHostBodySchema = z.object({
  name: requiredString().max(191, rule('max')),
  driver: z.enum(databaseDrivers, { error: 'in' satisfies LaravelRule }).nullish(),
  host: requiredString().max(191, rule('max')),
  port: requiredInteger({ min: 1, max: 65535 }),
  username: requiredString().max(32, rule('max')),
  password: nullableString(),
  node_id: nullableInteger(),
});

export type DatabaseHostBody = z.output<typeof databaseHostBodySchema>;

export const databaseHostMessages = {
  connectionFailed: (message: string) =>
    `There was an error while trying to connect to the host or while executing a query: "${message}"`,
  hasDatabases: 'Cannot delete a database host server that has active databases linked to it.',
} as const;

import { z } from 'zod';
import type { LaravelRule } from '../validation/laravel-messages';
import { nullableString, requiredString } from '../validation/rules';

/**
 * POST /api/remote/sftp/auth (Pterodactyl's SftpAuthenticationFormRequest): `type` nullable|in:password,public_key,
 * `username` required|string, `password` required|string; `ip`, `session_id`, `client_version` as Wings sends them.
 */
export const sftpAuthBodySchema = z.object({
  type: z.enum(['password', 'public_key'], { error: 'in' satisfies LaravelRule }).nullish(),
  username: requiredString(),
  password: requiredString(),
  ip: nullableString(),
  session_id: nullableString(),
  client_version: nullableString(),
});

import { z } from 'zod';
import { requiredString } from '../validation/rules';

/**
 * POST /api/client/account/ssh-keys: `name` required|string, `public_key` required|string. Whether the key is a
 * usable public key is decided by the panel afterwards (its 422 texts: `sshKeyMessages`).
 */
export const createSshKeyBodySchema = z.object({
  name: requiredString(),
  public_key: requiredString(),
});

/** POST /api/client/account/ssh-keys/remove: `fingerprint` required|string. */
export const removeSshKeyBodySchema = z.object({
  fingerprint: requiredString(),
});

import { z } from 'zod';
import { requiredString, rule } from '../validation/rules';
import { passkeyLimits } from './passkeys-wire';

const passkeyName = () =>
  requiredString().trim().min(1, rule('required')).max(passkeyLimits.nameMaxLength, rule('max'));

/**
 * A browser's credential JSON, bounded before any library reads it: an object whose serialised size is at most
 * `credentialMaxBytes` (the body limit is far larger). Its fields are checked by the WebAuthn library.
 */
const credential = () =>
  z.custom<Record<string, unknown>>(
    (value) =>
      typeof value === 'object' &&
      value !== null &&
      !Array.isArray(value) &&
      JSON.stringify(value).length <= passkeyLimits.credentialMaxBytes,
    rule('array'),
  );

/** POST /api/client/account/passkeys/options */
export const passkeyRegistrationOptionsBodySchema = z.object({ password: requiredString() });

/** POST /api/client/account/passkeys */
export const createPasskeyBodySchema = z.object({ name: passkeyName(), credential: credential() });

/** PATCH /api/client/account/passkeys/{id} */
export const renamePasskeyBodySchema = z.object({ name: passkeyName() });

/** POST /auth/passkey */
export const passkeySignInBodySchema = z.object({ credential: credential() });

/** POST /auth/login/checkpoint/passkey/options */
export const passkeyCheckpointOptionsBodySchema = z.object({ confirmation_token: requiredString() });

/** POST /auth/login/checkpoint/passkey */
export const passkeyCheckpointBodySchema = z.object({
  confirmation_token: requiredString(),
  credential: credential(),
});

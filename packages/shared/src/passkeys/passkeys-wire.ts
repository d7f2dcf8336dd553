/**
 * Wire shapes and fixed messages of passkeys (WebAuthn): the account's list (`/api/client/account/passkeys`) and
 * the sign-in ceremonies (`/auth/passkey/*`). The ceremonies carry the browser's own JSON forms
 * (PublicKeyCredentialCreationOptionsJSON and friends), which the panel and the web app hand to their WebAuthn
 * libraries untouched.
 */

/** Messages the panel answers with; the web app and tests match on them. */
export const passkeyMessages = {
  notVerified: 'The passkey could not be verified. Please try again.',
  unknown: 'This passkey is not registered with this panel.',
  ceremonyExpired: 'The passkey request expired. Please try again.',
  notBySessionless: 'Passkeys can only be managed from the panel itself.',
  nameTaken: 'A passkey with this name already exists on your account.',
  tooMany: 'An account can hold at most 20 passkeys.',
} as const;

export const passkeyLimits = {
  /** Passkeys one account may hold: enough for every device a person owns, few enough to list on one page. */
  perAccount: 20,
  nameMaxLength: 64,
  /** How long a challenge handed to the browser stays valid. */
  ceremonyTtlMs: 5 * 60 * 1000,
  /** Largest credential JSON accepted from a browser (attestation objects of real authenticators are < 2 KiB). */
  credentialMaxBytes: 16 * 1024,
} as const;

/** `passkey` item. */
export interface PasskeyAttributes {
  id: number;
  name: string;
  /** Whether the passkey is synced between devices (a backed-up, multi-device credential). */
  synced: boolean;
  created_at: string;
  last_used_at: string | null;
}

export interface PasskeyItem {
  object: 'passkey';
  attributes: PasskeyAttributes;
}

/** GET /api/client/account/passkeys */
export interface PasskeyList {
  object: 'list';
  data: PasskeyItem[];
}

/** POST /api/client/account/passkeys/options: the account password, checked before the browser is asked. */
export interface PasskeyRegistrationOptionsBody {
  password: string;
}

/** POST /api/client/account/passkeys */
export interface CreatePasskeyBody {
  name: string;
  /** The browser's RegistrationResponseJSON. */
  credential: unknown;
}

/** PATCH /api/client/account/passkeys/{id} */
export interface RenamePasskeyBody {
  name: string;
}

/** The options endpoints answer the browser's options JSON under `data`. */
export interface PasskeyOptionsResponse<T> {
  data: T;
}

/** POST /auth/login/checkpoint/passkey/options and POST /auth/login/checkpoint/passkey */
export interface PasskeyCheckpointBody {
  confirmation_token: string;
  /** The browser's AuthenticationResponseJSON (the verifying call only). */
  credential?: unknown;
}

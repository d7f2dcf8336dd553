/**
 * Wire shapes and fixed messages of the account API (`/api/client/account/*`, `/api/client/permissions`), as the
 * panel answers and the web app reads them. Shapes follow Pterodactyl's client API (reference §4.2, §4.3, §6).
 */

/** Limits of account API keys (reference §0, §4.2). */
export const apiKeyLimits = {
  /** Account keys a user may hold; creating one more answers 400. */
  perUser: 25,
  /** `allowed_ips` entries per key. */
  allowedIpsMax: 50,
  descriptionMax: 500,
  /** `ptlc_` + 11 letters/digits. */
  identifierLength: 16,
  secretLength: 32,
} as const;

/** Prefix of account (client) API key identifiers; `ptla_` marks the admin area's application keys. */
export const CLIENT_KEY_PREFIX = 'ptlc_';
export const APPLICATION_KEY_PREFIX = 'ptla_';

/** Messages of the account API; clients and tests match on them. */
export const accountErrorMessages = {
  invalidPassword: 'The password provided was invalid for this account.',
  twoFactorPasswordInvalid: 'The password provided was not valid.',
  twoFactorTokenInvalid: 'The provided two-factor authentication token was not valid.',
  twoFactorAlreadyEnabled: 'Two-factor authentication is already enabled on this account.',
  apiKeyLimit: 'You have reached the account limit for number of API keys.',
  invalidIpOrRange: (value: string) => `"${value}" is not a valid IP address or CIDR range.`,
  ipNotAllowed: (ip: string) =>
    `This IP address (${ip}) does not have permission to access the API using these credentials.`,
  applicationKeyOnClientApi:
    'You are attempting to use an application API key on an endpoint that requires a client API key.',
} as const;

/** `api_key` item: the secret is never part of it. Timestamps are ISO 8601 with `+00:00`. */
export interface ApiKeyAttributes {
  identifier: string;
  description: string;
  allowed_ips: string[];
  last_used_at: string | null;
  created_at: string;
}

export interface ApiKeyItem {
  object: 'api_key';
  attributes: ApiKeyAttributes;
}

/** GET /api/client/account/api-keys */
export interface ApiKeyList {
  object: 'list';
  data: ApiKeyItem[];
}

/** POST /api/client/account/api-keys: the only answer that carries the secret. Bearer = identifier + secret. */
export interface CreatedApiKey extends ApiKeyItem {
  meta: { secret_token: string };
}

/** GET /api/client/account/two-factor */
export interface TwoFactorSetupResponse {
  data: {
    /** `otpauth://totp/<AppName>:<email>?secret=<SECRET>&issuer=<AppName>`, to render as a QR code. */
    image_url_data: string;
    /** 32 base32 characters. */
    secret: string;
  };
}

/** POST /api/client/account/two-factor: ten single-use recovery tokens, shown this once. */
export interface RecoveryTokensResponse {
  object: 'recovery_tokens';
  attributes: { tokens: string[] };
}

/** Request bodies. */
export interface UpdateEmailBody {
  email: string;
  password: string;
}

export interface UpdatePasswordBody {
  current_password: string;
  password: string;
  password_confirmation: string;
}

export interface EnableTwoFactorBody {
  code: string;
  password: string;
}

export interface CreateApiKeyBody {
  description: string;
  allowed_ips?: string[] | null;
}

/** Values of the panel setting `2fa_required` (and env APP_2FA_REQUIRED). */
export const twoFactorRequirement = { none: 0, admins: 1, everyone: 2 } as const;
export type TwoFactorRequirement = (typeof twoFactorRequirement)[keyof typeof twoFactorRequirement];

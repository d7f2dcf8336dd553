/**
 * Wire shapes, limits and fixed messages of account API keys (`/api/client/account/api-keys`, and the client API's
 * key checks), as the panel answers and the web app reads them (Pterodactyl's client API, reference §4.2, §6).
 */

/** Limits of account API keys (reference §0, §4.2). */
export const apiKeyLimits = {
  /** Account keys a user may hold; creating one more answers 400. */
  perUser: 25,
  /** `allowed_ips` entries per key. */
  allowedIpsMax: 50,
  /** Spec §5 and §9: the form and the API both refuse a shorter description (after trimming). */
  descriptionMin: 4,
  descriptionMax: 500,
  /** `ptlc_` + 11 letters/digits. */
  identifierLength: 16,
  secretLength: 32,
} as const;

/** Prefix of account (client) API key identifiers; `ptla_` marks the admin area's application keys. */
export const CLIENT_KEY_PREFIX = 'ptlc_';
export const APPLICATION_KEY_PREFIX = 'ptla_';

/** Messages of the API-key routes and checks; clients and tests match on them. */
export const apiKeyErrorMessages = {
  apiKeyLimit: 'You have reached the account limit for number of API keys.',
  invalidIpOrRange: (value: string) => `"${value}" is not a valid IP address or CIDR range.`,
  ipNotAllowed: (ip: string) =>
    `This IP address (${ip}) does not have permission to access the API using these credentials.`,
  applicationKeyLimit: 'You have reached the account limit for number of application API keys.',
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
export interface CreateApiKeyBody {
  description: string;
  allowed_ips?: string[] | null;
}

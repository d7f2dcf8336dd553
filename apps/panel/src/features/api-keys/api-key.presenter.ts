import { toWireDate } from '@aerie/panel/db/dialect';
import type { ApiKeyItem, ApiKeyList, CreatedApiKey } from '@aerie/shared/api-keys/api-keys-wire';
import type { ApiKey } from './api-key';

/** Pterodactyl's `api_key` item: never the secret. */
export function presentApiKey(key: ApiKey): ApiKeyItem {
  return {
    object: 'api_key',
    attributes: {
      identifier: key.identifier,
      description: key.description,
      allowed_ips: key.allowedIps,
      last_used_at: key.lastUsedAt ? toWireDate(key.lastUsedAt) : null,
      created_at: toWireDate(key.createdAt),
    },
  };
}

export const presentApiKeyList = (keys: ApiKey[]): ApiKeyList => ({
  object: 'list',
  data: keys.map(presentApiKey),
});

/** The creation answer: the item plus the secret, shown this once. */
export const presentCreatedApiKey = (key: ApiKey, secret: string): CreatedApiKey => ({
  ...presentApiKey(key),
  meta: { secret_token: secret },
});

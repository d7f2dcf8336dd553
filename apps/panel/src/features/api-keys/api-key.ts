import { readDate, readNullableDate } from '@aerie/panel/db/dialect';
import type { ApiKeysTable, ApiKeyType } from '@aerie/panel/db/schema-account';
import { adminResources, type ResourceAccess } from '@aerie/shared/api-keys/application-keys-wire';
import type { Selectable } from 'kysely';

export const ACCOUNT_KEY: ApiKeyType = 1;
export const APPLICATION_KEY: ApiKeyType = 2;

/** An API key as services see it (never its secret: only the secret's hash is stored). */
export interface ApiKey {
  id: number;
  userId: number;
  keyType: ApiKeyType;
  identifier: string;
  /** SHA-256 hex of the secret. */
  tokenHash: string;
  description: string;
  allowedIps: string[];
  lastUsedAt: Date | null;
  createdAt: Date;
  /** An application key's access per resource (bit 1 read, bit 2 write); all 0 on account keys. */
  access: ResourceAccess;
}

function parseIps(text: string): string[] {
  try {
    const value = JSON.parse(text) as unknown;
    return Array.isArray(value) ? value.filter((entry): entry is string => typeof entry === 'string') : [];
  } catch {
    return [];
  }
}

export function toApiKey(row: Selectable<ApiKeysTable>): ApiKey {
  return {
    id: row.id,
    userId: row.user_id,
    keyType: Number(row.key_type) as ApiKeyType,
    identifier: row.identifier,
    tokenHash: row.token,
    description: row.memo,
    allowedIps: parseIps(row.allowed_ips),
    lastUsedAt: readNullableDate(row.last_used_at),
    createdAt: readDate(row.created_at),
    access: Object.fromEntries(
      adminResources.map((resource) => [resource, Number(row[`r_${resource}`] ?? 0)]),
    ) as ResourceAccess,
  };
}

import {
  type AdminResource,
  type ApplicationKeyAttributes,
  adminResources,
} from '@aerie/shared/api-keys/application-keys-wire';
import { queryOptions } from '@tanstack/react-query';
import { apiClient } from '@/lib/api-client';
import type { ApplicationItem, ApplicationList } from '@/lib/application-api';

/** An application API key (`ptla_…`) as the admin area lists it; never its secret. */
export interface ApplicationKey {
  identifier: string;
  memo: string;
  allowedIps: string[];
  /** Per resource: 0 none, 1 read, 3 read and write. */
  access: Record<AdminResource, number>;
  lastUsedAt: Date | null;
  createdAt: Date | null;
}

export interface CreatedApplicationKey {
  key: ApplicationKey;
  /** The full key to copy, shown this once. */
  token: string;
}

const toDate = (value: string | null) => (value ? new Date(value) : null);

const toApplicationKey = (attributes: ApplicationKeyAttributes): ApplicationKey => ({
  identifier: attributes.identifier,
  memo: attributes.memo,
  allowedIps: attributes.allowed_ips,
  access: Object.fromEntries(
    adminResources.map((resource) => [resource, attributes[`r_${resource}`] ?? 0]),
  ) as Record<AdminResource, number>,
  lastUsedAt: toDate(attributes.last_used_at),
  createdAt: toDate(attributes.created_at),
});

export const applicationKeyKeys = { all: ['admin', 'api-keys'] as const };

/** GET /api/application/api-keys */
export async function getApplicationKeys(signal?: AbortSignal): Promise<ApplicationKey[]> {
  const list = await apiClient.get<ApplicationList<ApplicationKeyAttributes>>('/api/application/api-keys', {
    signal,
  });
  return list.data.map((item) => toApplicationKey(item.attributes));
}

export interface CreateApplicationKeyInput {
  memo: string;
  allowedIps: string[];
  access: Record<AdminResource, number>;
}

/** POST /api/application/api-keys: the answer carries the secret, this once. */
export async function createApplicationKey(input: CreateApplicationKeyInput): Promise<CreatedApplicationKey> {
  const body: Record<string, unknown> = { memo: input.memo, allowed_ips: input.allowedIps };
  for (const resource of adminResources) body[`r_${resource}`] = input.access[resource];
  const created = await apiClient.post<
    ApplicationItem<ApplicationKeyAttributes> & { meta: { secret_token: string } }
  >('/api/application/api-keys', body);
  return { key: toApplicationKey(created.attributes), token: created.meta.secret_token };
}

/** DELETE /api/application/api-keys/{identifier} */
export async function revokeApplicationKey(identifier: string): Promise<void> {
  await apiClient.delete(`/api/application/api-keys/${encodeURIComponent(identifier)}`);
}

export const applicationKeysQueryOptions = () =>
  queryOptions({ queryKey: applicationKeyKeys.all, queryFn: ({ signal }) => getApplicationKeys(signal) });

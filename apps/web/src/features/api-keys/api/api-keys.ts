import type {
  ApiKeyItem,
  ApiKeyList,
  CreateApiKeyBody,
  CreatedApiKey as CreatedApiKeyResponse,
} from '@aerie/shared/api-keys/api-keys-wire';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '@/lib/api-client';

/** An account API key (spec §3). The secret is never part of it. */
export interface ApiKey {
  identifier: string;
  description: string;
  allowedIps: string[];
  createdAt: Date | null;
  lastUsedAt: Date | null;
}

export interface CreatedApiKey {
  key: ApiKey;
  /** What the user copies: the identifier followed by the secret, shown this once. */
  token: string;
}

const toDate = (value: string | null) => (value ? new Date(value) : null);

export function toApiKey({ attributes }: ApiKeyItem): ApiKey {
  return {
    identifier: attributes.identifier,
    description: attributes.description,
    allowedIps: attributes.allowed_ips,
    createdAt: toDate(attributes.created_at),
    lastUsedAt: toDate(attributes.last_used_at),
  };
}

export const apiKeyKeys = {
  all: ['account', 'api-keys'] as const,
  list: () => [...apiKeyKeys.all, 'list'] as const,
  create: () => [...apiKeyKeys.all, 'create'] as const,
  delete: () => [...apiKeyKeys.all, 'delete'] as const,
};

/** GET /api/client/account/api-keys */
export async function getApiKeys(signal?: AbortSignal): Promise<ApiKey[]> {
  const response = await apiClient.get<ApiKeyList>('/api/client/account/api-keys', { signal });
  return response.data.map(toApiKey);
}

/** POST /api/client/account/api-keys */
export async function createApiKey(body: CreateApiKeyBody): Promise<CreatedApiKey> {
  const response = await apiClient.post<CreatedApiKeyResponse>('/api/client/account/api-keys', body);
  return {
    key: toApiKey(response),
    token: `${response.attributes.identifier}${response.meta.secret_token}`,
  };
}

/** DELETE /api/client/account/api-keys/{identifier} */
export async function deleteApiKey(identifier: string): Promise<void> {
  await apiClient.delete(`/api/client/account/api-keys/${encodeURIComponent(identifier)}`);
}

export const apiKeysQueryOptions = () =>
  queryOptions({ queryKey: apiKeyKeys.list(), queryFn: ({ signal }) => getApiKeys(signal) });

/** Creates a key and appends it to the cached list, so the list shows it without another request. */
export function useCreateApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: apiKeyKeys.create(),
    mutationFn: createApiKey,
    onSuccess: ({ key }) => {
      queryClient.setQueryData<ApiKey[]>(apiKeyKeys.list(), (keys) => [...(keys ?? []), key]);
    },
  });
}

/** Deletes a key and drops it from the cached list. */
export function useDeleteApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: apiKeyKeys.delete(),
    mutationFn: deleteApiKey,
    onSuccess: (_, identifier) => {
      queryClient.setQueryData<ApiKey[]>(apiKeyKeys.list(), (keys) =>
        keys?.filter((key) => key.identifier !== identifier),
      );
    },
  });
}

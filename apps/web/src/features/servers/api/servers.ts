import type { ServerListResponse, ServerResponse } from '@aerie/shared/servers/server-wire';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import {
  type PaginatedResult,
  type Server,
  type ServerListItem,
  toPagination,
  toServer,
  toServerListItem,
} from '@/features/servers/api/transformers';
import { apiClient } from '@/lib/api-client';

// A panel may leave the meta out; the permission list then counts as empty (spec §6).
type ServerResponseWithOptionalMeta = Omit<ServerResponse, 'meta'> & {
  meta?: Partial<ServerResponse['meta']>;
};

/** Which servers the list holds: the caller's own (and shared), others' (root admins), or every server. */
export type ServerListType = 'admin' | 'admin-all' | undefined;

export interface ServerListQuery {
  page?: number;
  type?: ServerListType;
  /** `filter[*]`: name, uuid or allocation (reference §8). */
  search?: string;
}

export async function getServers({ page, type, search }: ServerListQuery, signal?: AbortSignal) {
  const response = await apiClient.get<ServerListResponse>('/api/client', {
    params: { page, 'filter[*]': search, type },
    signal,
  });
  return {
    items: response.data.map(({ attributes }) => toServerListItem(attributes)),
    pagination: toPagination(response.meta.pagination),
  } satisfies PaginatedResult<ServerListItem>;
}

export interface LoadedServer {
  server: Server;
  isOwner: boolean;
  /** Spec §6: the owner holds the wildcard, anyone else what the panel lists (none when absent). */
  permissions: string[];
}

export async function getServer(id: string, signal?: AbortSignal): Promise<LoadedServer> {
  const response = await apiClient.get<ServerResponseWithOptionalMeta>(
    `/api/client/servers/${encodeURIComponent(id)}`,
    {
      signal,
    },
  );
  const isOwner = response.meta?.is_server_owner === true;
  return {
    server: toServer(response.attributes),
    isOwner,
    permissions: isOwner ? ['*'] : (response.meta?.user_permissions ?? []),
  };
}

export const serverKeys = {
  all: ['servers'] as const,
  lists: () => [...serverKeys.all, 'list'] as const,
  list: (query: ServerListQuery) => [...serverKeys.lists(), query] as const,
  detail: (id: string) => [...serverKeys.all, 'detail', id] as const,
};

export const serversQueryOptions = (query: ServerListQuery) =>
  queryOptions({
    queryKey: serverKeys.list(query),
    queryFn: ({ signal }) => getServers(query, signal),
    // The old page stays on screen while the next one loads, so the list does not jump.
    placeholderData: keepPreviousData,
  });

export const serverQueryOptions = (id: string) =>
  queryOptions({
    queryKey: serverKeys.detail(id),
    queryFn: ({ signal }) => getServer(id, signal),
    staleTime: Number.POSITIVE_INFINITY,
  });

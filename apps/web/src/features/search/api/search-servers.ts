import { searchTermMinLength } from '@aerie/shared/search/search.schema';
import { queryOptions } from '@tanstack/react-query';
import { apiClient } from '@/lib/api-client';

interface AllocationWire {
  attributes: { ip: string; ip_alias: string | null; port: number; is_default: boolean };
}

interface ServerWire {
  attributes: {
    identifier: string;
    name: string;
    node: string;
    relationships?: { allocations?: { data?: AllocationWire[] } };
  };
}

export interface ServerSearchResult {
  id: string;
  name: string;
  node: string;
  /** Default allocations as alias-or-ip:port. */
  addresses: string[];
}

/** Results the modal shows at most (spec §9). */
export const maxSearchResults = 5;

function toResult({ attributes }: ServerWire): ServerSearchResult {
  const allocations = attributes.relationships?.allocations?.data ?? [];
  return {
    id: attributes.identifier,
    name: attributes.name,
    node: attributes.node,
    addresses: allocations
      .filter((allocation) => allocation.attributes.is_default)
      .map(({ attributes: a }) => `${a.ip_alias || a.ip}:${a.port}`),
  };
}

/** GET /api/client?filter[*]=… ; root admins search every server (type=admin-all). */
export async function searchServers(term: string, rootAdmin: boolean, signal?: AbortSignal) {
  const response = await apiClient.get<{ data: ServerWire[] }>('/api/client', {
    params: { 'filter[*]': term, type: rootAdmin ? 'admin-all' : undefined },
    signal,
  });
  return response.data.slice(0, maxSearchResults).map(toResult);
}

export const searchKeys = {
  all: ['server-search'] as const,
  term: (term: string, rootAdmin: boolean) => [...searchKeys.all, term, rootAdmin] as const,
};

export const searchServersQueryOptions = (term: string, rootAdmin: boolean) =>
  queryOptions({
    queryKey: searchKeys.term(term, rootAdmin),
    queryFn: ({ signal }) => searchServers(term, rootAdmin, signal),
    enabled: term.length >= searchTermMinLength,
    staleTime: 10_000,
  });

import { searchTermMinLength } from '@aerie/shared/search/search-forms';
import { queryOptions } from '@tanstack/react-query';
import { getServers } from '@/features/servers/api/servers';
import { allocationAddress } from '@/features/servers/api/transformers';

export interface ServerSearchResult {
  id: string;
  name: string;
  node: string;
  /** Default allocations as alias-or-ip:port. */
  addresses: string[];
}

/** Results the modal shows at most (spec §9). */
export const maxSearchResults = 5;

/** GET /api/client?filter[*]=… ; root admins search every server (type=admin-all). */
export async function searchServers(term: string, rootAdmin: boolean, signal?: AbortSignal) {
  const { items } = await getServers({ search: term, type: rootAdmin ? 'admin-all' : undefined }, signal);
  return items.slice(0, maxSearchResults).map(
    (server): ServerSearchResult => ({
      id: server.id,
      name: server.name,
      node: server.node,
      addresses: server.allocations.filter((a) => a.isDefault).map(allocationAddress),
    }),
  );
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

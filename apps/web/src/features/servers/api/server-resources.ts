import type { StatsResponse } from '@aerie/shared/servers/server-wire';
import { queryOptions } from '@tanstack/react-query';
import { type ServerStats, toServerStats } from '@/features/servers/api/transformers';
import { apiClient } from '@/lib/api-client';

/** Dashboard cards refresh their usage this often (spec §9). */
export const usagePollMs = 30_000;

export async function getServerResources(uuid: string, signal?: AbortSignal): Promise<ServerStats> {
  const response = await apiClient.get<StatsResponse>(
    `/api/client/servers/${encodeURIComponent(uuid)}/resources`,
    // The next poll is the retry.
    { signal, retries: 0 },
  );
  return toServerStats(response.attributes);
}

export const serverResourcesKeys = {
  usage: (uuid: string) => ['servers', 'resources', uuid] as const,
};

/**
 * Usage of one card, polled every 30 s while the server is not suspended. A failure is not retried at once:
 * the card says 'Connection Error' and the next poll tries again.
 */
export const serverResourcesQueryOptions = (uuid: string, suspended: boolean) =>
  queryOptions({
    queryKey: serverResourcesKeys.usage(uuid),
    queryFn: ({ signal }) => getServerResources(uuid, signal),
    enabled: !suspended,
    retry: false,
    staleTime: 0,
    refetchInterval: (query) => (query.state.data?.isSuspended ? false : usagePollMs),
  });

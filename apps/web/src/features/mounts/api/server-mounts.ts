import type { ServerMountAttributes, ServerMountListResponse } from '@aerie/shared/mounts/mounts-wire';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { serverKeys } from '@/features/servers/api/servers';
import { apiClient } from '@/lib/api-client';

const base = (serverId: string) => `/api/client/servers/${encodeURIComponent(serverId)}/mounts`;

export type ServerMount = ServerMountAttributes;

export const serverMountKeys = {
  list: (serverId: string) => [...serverKeys.detail(serverId), 'mounts'] as const,
};

/** GET …/mounts: what the server uses and what its users may attach. */
export async function getServerMounts(serverId: string, signal?: AbortSignal): Promise<ServerMount[]> {
  const response = await apiClient.get<ServerMountListResponse>(base(serverId), { signal });
  return response.data.map(({ attributes }) => attributes);
}

export const serverMountsQueryOptions = (serverId: string) =>
  queryOptions({
    queryKey: serverMountKeys.list(serverId),
    queryFn: ({ signal }) => getServerMounts(serverId, signal),
  });

/** POST (attach) or DELETE (detach) …/mounts/{uuid}; the list is read again after either, refused or not. */
export function useToggleServerMount(serverId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ uuid, attach }: { uuid: string; attach: boolean }) => {
      const url = `${base(serverId)}/${encodeURIComponent(uuid)}`;
      if (attach) await apiClient.post(url);
      else await apiClient.delete(url);
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: serverMountKeys.list(serverId), exact: true }),
  });
}

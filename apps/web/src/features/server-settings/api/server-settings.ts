import { useMutation, useQueryClient } from '@tanstack/react-query';
import { serverCache } from '@/features/servers/api/server-cache';
import { serverKeys } from '@/features/servers/api/servers';
import { apiClient } from '@/lib/api-client';

const base = (serverId: string) => `/api/client/servers/${encodeURIComponent(serverId)}/settings`;

export interface RenameServerInput {
  name: string;
  description: string;
}

/** POST …/settings/rename: 204. */
export async function renameServer(serverId: string, { name, description }: RenameServerInput) {
  await apiClient.post<void>(`${base(serverId)}/rename`, { name, description });
}

/** POST …/settings/reinstall: 202; the panel marks the server as installing and has the daemon reinstall it. */
export async function reinstallServer(serverId: string) {
  await apiClient.post<void>(`${base(serverId)}/reinstall`);
}

/** PUT …/settings/docker-image: 204; only one of the images the egg offers is accepted. */
export async function setDockerImage(serverId: string, dockerImage: string) {
  await apiClient.put<void>(`${base(serverId)}/docker-image`, { docker_image: dockerImage });
}

/** Renames the server; the open server takes the new name at once (tab title, info card), the dashboard reloads. */
export function useRenameServer(serverId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: RenameServerInput) => renameServer(serverId, input),
    onSuccess: (_nothing, { name, description }) => {
      serverCache.update(queryClient, serverId, (server) => ({
        ...server,
        name,
        description: description || null,
      }));
      void queryClient.invalidateQueries({ queryKey: serverKeys.lists() });
    },
  });
}

/**
 * Reinstalls the server. The panel has set it to installing by the time it answers, so the server is loaded again:
 * the area then shows the installer's blocked view until the console socket reports the install done.
 */
export function useReinstallServer(serverId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => reinstallServer(serverId),
    onSuccess: () => void serverCache.reload(queryClient, serverId),
  });
}

/** Changes the Docker image; the open server takes it once the panel accepted it. */
export function useSetDockerImage(serverId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (image: string) => setDockerImage(serverId, image),
    onSuccess: (_nothing, image) =>
      serverCache.update(queryClient, serverId, (server) => ({ ...server, dockerImage: image })),
  });
}

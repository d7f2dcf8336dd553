import type { StartupResponse, StartupVariableResponse } from '@aerie/shared/startup/startup-wire';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { serverCache } from '@/features/servers/api/server-cache';
import { serverKeys } from '@/features/servers/api/servers';
import { type ServerVariable, toServerVariable } from '@/features/servers/api/transformers';
import { apiClient } from '@/lib/api-client';

/** The Startup page's data (spec §3 "Startup data"). */
export interface StartupData {
  /** The startup command as the user may see it (hidden values as `[hidden]`). */
  invocation: string;
  variables: ServerVariable[];
  /** The images the egg offers, label → image. */
  dockerImages: Record<string, string>;
}

const base = (serverId: string) => `/api/client/servers/${encodeURIComponent(serverId)}/startup`;

/** Under the server's key, so leaving the server drops it with everything else. */
export const startupKeys = {
  detail: (serverId: string) => [...serverKeys.detail(serverId), 'startup'] as const,
};

/** GET …/startup */
export async function getStartup(serverId: string, signal?: AbortSignal): Promise<StartupData> {
  const response = await apiClient.get<StartupResponse>(base(serverId), {
    signal,
    retries: startupLoadRetry.times,
  });
  return {
    invocation: response.meta.startup_command,
    variables: response.data.map(({ attributes }) => toServerVariable(attributes)),
    dockerImages: response.meta.docker_images ?? {},
  };
}

/** PUT …/startup/variable: the variable as stored, and the command it now gives. */
export async function updateStartupVariable(serverId: string, key: string, value: string) {
  const response = await apiClient.put<StartupVariableResponse>(`${base(serverId)}/variable`, { key, value });
  return { variable: toServerVariable(response.attributes), invocation: response.meta.startup_command };
}

/**
 * How the page retries a failed load (spec §9: three times). The API client makes the retries, within the call's
 * 20 s, and only of network errors and 5xx answers (a 4xx would only repeat itself). Mutable so tests can change it.
 */
export const startupLoadRetry = { times: 3 };

export const startupQueryOptions = (serverId: string) =>
  queryOptions({
    queryKey: startupKeys.detail(serverId),
    queryFn: ({ signal }) => getStartup(serverId, signal),
    // The page always shows what the panel has now (another user may have changed a variable).
    staleTime: 0,
  });

/**
 * Saves one variable. The cached page data takes the stored value and the new command; the open server's
 * invocation and variables follow, as they are the same data.
 */
export function useUpdateStartupVariable(serverId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ key, value }: { key: string; value: string }) =>
      updateStartupVariable(serverId, key, value),
    onSuccess: ({ variable, invocation }) => {
      const replace = (variables: ServerVariable[]) =>
        variables.map((v) => (v.envVariable === variable.envVariable ? variable : v));
      queryClient.setQueryData<StartupData>(startupKeys.detail(serverId), (data) =>
        data ? { ...data, invocation, variables: replace(data.variables) } : data,
      );
      serverCache.update(queryClient, serverId, (server) => ({
        ...server,
        invocation,
        variables: replace(server.variables),
      }));
    },
  });
}

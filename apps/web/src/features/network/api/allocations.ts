import type { AllocationListResponse, AllocationResponse } from '@aerie/shared/network/network-wire';
import { type QueryClient, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { serverCache } from '@/features/servers/api/server-cache';
import { serverKeys } from '@/features/servers/api/servers';
import { type Allocation, toAllocation } from '@/features/servers/api/transformers';
import { apiClient } from '@/lib/api-client';

const base = (serverId: string) => `/api/client/servers/${encodeURIComponent(serverId)}/network/allocations`;

/** Under the server's key, so leaving the server drops the list with everything else. */
export const allocationKeys = {
  list: (serverId: string) => [...serverKeys.detail(serverId), 'network', 'allocations'] as const,
};

/** GET …/network/allocations */
export async function getAllocations(serverId: string, signal?: AbortSignal): Promise<Allocation[]> {
  const response = await apiClient.get<AllocationListResponse>(base(serverId), { signal });
  return response.data.map(({ attributes }) => toAllocation(attributes));
}

/** POST …/network/allocations: a free port for the server, on the node and IP of its primary allocation. */
export async function createAllocation(serverId: string): Promise<Allocation> {
  const response = await apiClient.post<AllocationResponse>(base(serverId));
  return toAllocation(response.attributes);
}

/** POST …/network/allocations/{id}: "" clears the notes. */
export async function setAllocationNotes(serverId: string, id: number, notes: string) {
  await apiClient.post<AllocationResponse>(`${base(serverId)}/${id}`, { notes });
}

/** POST …/network/allocations/{id}/primary */
export async function setPrimaryAllocation(serverId: string, id: number) {
  await apiClient.post<AllocationResponse>(`${base(serverId)}/${id}/primary`);
}

/** DELETE …/network/allocations/{id}: the allocation goes back to the node's free ones. */
export async function deleteAllocation(serverId: string, id: number) {
  await apiClient.delete(`${base(serverId)}/${id}`);
}

/**
 * Changes the cached list and, with it, the open server's allocations (the console's address reads those), so the
 * two never disagree.
 */
export function updateAllocations(
  queryClient: QueryClient,
  serverId: string,
  change: (allocations: Allocation[]) => Allocation[],
) {
  queryClient.setQueryData<Allocation[]>(allocationKeys.list(serverId), (list) => list && change(list));
  serverCache.update(queryClient, serverId, (server) => ({
    ...server,
    allocations: change(server.allocations),
  }));
}

export const allocationsQueryOptions = (serverId: string, queryClient: QueryClient) =>
  queryOptions({
    queryKey: allocationKeys.list(serverId),
    queryFn: async ({ signal }) => {
      const allocations = await getAllocations(serverId, signal);
      serverCache.update(queryClient, serverId, (server) => ({ ...server, allocations }));
      return allocations;
    },
    // Spec §9: the list is not loaded again on focus or when the page opens again; this page's own changes
    // keep it current.
    staleTime: Number.POSITIVE_INFINITY,
    refetchOnWindowFocus: false,
    refetchOnMount: false,
  });

/** Reloads the list: what the panel has is the truth after a refused change. */
const reload = (queryClient: QueryClient, serverId: string) =>
  queryClient.invalidateQueries({ queryKey: allocationKeys.list(serverId), exact: true });

export function useCreateAllocation(serverId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => createAllocation(serverId),
    onSuccess: (allocation) => updateAllocations(queryClient, serverId, (list) => [...list, allocation]),
  });
}

/** Makes an allocation the primary one at once (spec §4); a refused change reloads the list. */
export function useSetPrimaryAllocation(serverId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => setPrimaryAllocation(serverId, id),
    onMutate: async (id) => {
      await queryClient.cancelQueries({ queryKey: allocationKeys.list(serverId), exact: true });
      updateAllocations(queryClient, serverId, (list) =>
        list.map((allocation) => ({ ...allocation, isDefault: allocation.id === id })),
      );
    },
    onError: () => reload(queryClient, serverId),
  });
}

/**
 * Removes an allocation from the list at once (spec §4); a refused delete reloads the list. `onError` is given
 * here rather than to `mutate`, because the row that asked is gone by the time the answer comes.
 */
export function useDeleteAllocation(serverId: string, { onError }: { onError: (error: unknown) => void }) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => deleteAllocation(serverId, id),
    onMutate: async (id) => {
      await queryClient.cancelQueries({ queryKey: allocationKeys.list(serverId), exact: true });
      updateAllocations(queryClient, serverId, (list) => list.filter((allocation) => allocation.id !== id));
    },
    onError: (error) => {
      onError(error);
      void reload(queryClient, serverId);
    },
  });
}

/** Saves an allocation's notes; the cached list then holds them too (an empty note is none). */
export function useAllocationNotes(serverId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, notes }: { id: number; notes: string }) => setAllocationNotes(serverId, id, notes),
    onSuccess: (_nothing, { id, notes }) =>
      updateAllocations(queryClient, serverId, (list) =>
        list.map((allocation) =>
          allocation.id === id ? { ...allocation, notes: notes || null } : allocation,
        ),
      ),
  });
}

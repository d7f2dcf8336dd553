import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { adminNodeKeys } from '@/features/admin-nodes/api/nodes';
import { apiClient } from '@/lib/api-client';
import {
  type ApplicationItem,
  type ApplicationList,
  listQuery,
  type Page,
  toPage,
} from '@/lib/application-api';

/** An IP and port of a node (the Application API's `allocation`), with the server holding it. */
export interface NodeAllocation {
  id: number;
  ip: string;
  alias: string | null;
  port: number;
  notes: string | null;
  assigned: boolean;
  /** With `include=server`: who holds it (null when free, or when the include was refused). */
  server: { id: number; name: string; identifier: string } | null;
}

interface AllocationAttributes {
  id: number;
  ip: string;
  alias: string | null;
  port: number;
  notes: string | null;
  assigned: boolean;
  relationships?: {
    server?:
      | ApplicationItem<{ id: number; name: string; identifier: string }>
      | { object: 'null_resource'; attributes: null };
  };
}

/** POST body: one IP (or a /25–/32 block), ports as strings: single ports and `25565-25600` ranges. */
export interface AllocationBody {
  ip: string;
  alias: string | null;
  ports: string[];
}

const toAllocation = (attributes: AllocationAttributes): NodeAllocation => {
  const server = attributes.relationships?.server;
  return {
    id: attributes.id,
    ip: attributes.ip,
    alias: attributes.alias,
    port: attributes.port,
    notes: attributes.notes,
    assigned: attributes.assigned,
    server:
      server && server.object === 'server'
        ? { id: server.attributes.id, name: server.attributes.name, identifier: server.attributes.identifier }
        : null,
  };
};

const path = (nodeId: number) => `/api/application/nodes/${nodeId}/allocations`;

/** Allocations a page at a time. */
export const allocationsPerPage = 50;

/** GET /api/application/nodes/{id}/allocations?include=server */
export async function getNodeAllocations(
  nodeId: number,
  page: number,
  signal?: AbortSignal,
): Promise<Page<NodeAllocation>> {
  const list = await apiClient.get<ApplicationList<AllocationAttributes>>(path(nodeId), {
    signal,
    params: { ...listQuery({ page, perPage: allocationsPerPage }), include: 'server' },
  });
  return toPage(list, toAllocation);
}

/** POST /api/application/nodes/{id}/allocations (204). */
export async function createAllocations(nodeId: number, body: AllocationBody): Promise<void> {
  await apiClient.post(path(nodeId), body);
}

/** DELETE /api/application/nodes/{id}/allocations/{allocation}: refused (400) while a server holds it. */
export async function deleteNodeAllocation(nodeId: number, allocationId: number): Promise<void> {
  await apiClient.delete(`${path(nodeId)}/${allocationId}`);
}

export const nodeAllocationsQueryOptions = (nodeId: number, page: number) =>
  queryOptions({
    queryKey: [...adminNodeKeys.allocations(nodeId), page] as const,
    queryFn: ({ signal }) => getNodeAllocations(nodeId, page, signal),
    placeholderData: keepPreviousData,
  });

export function useCreateAllocations(nodeId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: AllocationBody) => createAllocations(nodeId, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: adminNodeKeys.allocations(nodeId) }),
  });
}

/**
 * Deletes several allocations, one DELETE each (the API has no bulk route), one after the other. Resolves with
 * the ids that failed and their messages; the list is asked again either way.
 */
export function useDeleteAllocations(nodeId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (ids: number[]) => {
      const failed: { id: number; error: unknown }[] = [];
      for (const id of ids) {
        try {
          await deleteNodeAllocation(nodeId, id);
        } catch (error) {
          failed.push({ id, error });
        }
      }
      return failed;
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: adminNodeKeys.allocations(nodeId) }),
  });
}

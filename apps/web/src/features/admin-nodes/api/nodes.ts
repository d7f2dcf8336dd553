import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '@/lib/api-client';
import { type ApplicationItem, applicationResource, listQuery, type Page } from '@/lib/application-api';

/** A node as the admin area shows it (the Application API's `node`). */
export interface AdminNode {
  id: number;
  uuid: string;
  public: boolean;
  name: string;
  description: string | null;
  locationId: number;
  fqdn: string;
  scheme: string;
  behindProxy: boolean;
  maintenanceMode: boolean;
  /** MiB. */
  memory: number;
  /** Percent over `memory` servers may be given; -1 turns the check off. */
  memoryOverallocate: number;
  /** MiB. */
  disk: number;
  diskOverallocate: number;
  /** MB. */
  uploadSize: number;
  daemonListen: number;
  daemonSftp: number;
  daemonBase: string;
  createdAt: string;
  updatedAt: string;
  /** What its servers have been given (MiB). */
  allocated: { memory: number; disk: number };
  /** With `include=location`. */
  location: { id: number; short: string; long: string | null } | null;
}

interface NodeAttributes {
  id: number;
  uuid: string;
  public: boolean;
  name: string;
  description: string | null;
  location_id: number;
  fqdn: string;
  scheme: string;
  behind_proxy: boolean;
  maintenance_mode: boolean;
  memory: number;
  memory_overallocate: number;
  disk: number;
  disk_overallocate: number;
  upload_size: number;
  daemon_listen: number;
  daemon_sftp: number;
  daemon_base: string;
  created_at: string;
  updated_at: string;
  allocated_resources: { memory: number; disk: number };
  relationships?: {
    location?:
      | ApplicationItem<{ id: number; short: string; long: string | null }>
      | { object: 'null_resource'; attributes: null };
  };
}

/** What POST and PATCH take: every field, each time (PATCH without `daemon_base` would reset it). */
export interface NodeBody {
  name: string;
  location_id: number;
  fqdn: string;
  scheme: 'http' | 'https';
  behind_proxy: boolean;
  public: boolean;
  maintenance_mode: boolean;
  memory: number;
  memory_overallocate: number;
  disk: number;
  disk_overallocate: number;
  upload_size: number;
  daemon_listen: number;
  daemon_sftp: number;
  daemon_base: string;
}

export function toAdminNode(attributes: NodeAttributes): AdminNode {
  const location = attributes.relationships?.location;
  return {
    id: attributes.id,
    uuid: attributes.uuid,
    public: attributes.public,
    name: attributes.name,
    description: attributes.description,
    locationId: attributes.location_id,
    fqdn: attributes.fqdn,
    scheme: attributes.scheme,
    behindProxy: attributes.behind_proxy,
    maintenanceMode: attributes.maintenance_mode,
    memory: attributes.memory,
    memoryOverallocate: attributes.memory_overallocate,
    disk: attributes.disk,
    diskOverallocate: attributes.disk_overallocate,
    uploadSize: attributes.upload_size,
    daemonListen: attributes.daemon_listen,
    daemonSftp: attributes.daemon_sftp,
    daemonBase: attributes.daemon_base,
    createdAt: attributes.created_at,
    updatedAt: attributes.updated_at,
    allocated: attributes.allocated_resources,
    location: location && location.object === 'location' ? location.attributes : null,
  };
}

/** The saved node as a body again (the token reset sends it unchanged). */
export const nodeToBody = (node: AdminNode): NodeBody => ({
  name: node.name,
  location_id: node.locationId,
  fqdn: node.fqdn,
  scheme: node.scheme === 'http' ? 'http' : 'https',
  behind_proxy: node.behindProxy,
  public: node.public,
  maintenance_mode: node.maintenanceMode,
  memory: node.memory,
  memory_overallocate: node.memoryOverallocate,
  disk: node.disk,
  disk_overallocate: node.diskOverallocate,
  upload_size: node.uploadSize,
  daemon_listen: node.daemonListen,
  daemon_sftp: node.daemonSftp,
  daemon_base: node.daemonBase,
});

export const adminNodeKeys = {
  all: ['admin', 'nodes'] as const,
  lists: () => [...adminNodeKeys.all, 'list'] as const,
  list: (page: number) => [...adminNodeKeys.lists(), page] as const,
  detail: (id: number) => [...adminNodeKeys.all, 'detail', id] as const,
  configuration: (id: number) => [...adminNodeKeys.detail(id), 'configuration'] as const,
  allocations: (id: number) => [...adminNodeKeys.detail(id), 'allocations'] as const,
};

const base = '/api/application/nodes';
const nodes = applicationResource<NodeAttributes, AdminNode, NodeBody & { reset_secret?: true }>(
  base,
  toAdminNode,
  'location',
);

/** GET /api/application/nodes?include=location */
export const getNodes = (page: number, signal?: AbortSignal): Promise<Page<AdminNode>> =>
  nodes.list(listQuery({ page }), signal);

/** GET /api/application/nodes/{id}?include=location */
export const getNode = nodes.get;

/** POST /api/application/nodes */
export const createNode = nodes.create;

/** PATCH /api/application/nodes/{id}; `reset_secret: true` issues a new daemon token. */
export const updateNode = nodes.update;

/** DELETE /api/application/nodes/{id}: refused (400) while servers are on it. */
export const deleteNode = nodes.remove;

/** GET /api/application/nodes/{id}/configuration: Wings' document plus the `aerie.env` block (no envelope). */
export async function getNodeConfiguration(
  id: number,
  signal?: AbortSignal,
): Promise<Record<string, unknown>> {
  return apiClient.get<Record<string, unknown>>(`${base}/${id}/configuration`, { signal });
}

export const nodesQueryOptions = (page: number) =>
  queryOptions({
    queryKey: adminNodeKeys.list(page),
    queryFn: ({ signal }) => getNodes(page, signal),
    placeholderData: keepPreviousData,
  });

export const nodeQueryOptions = (id: number) =>
  queryOptions({ queryKey: adminNodeKeys.detail(id), queryFn: ({ signal }) => getNode(id, signal) });

/** Holds the daemon token: never kept in the cache once the page is left. */
export const nodeConfigurationQueryOptions = (id: number) =>
  queryOptions({
    queryKey: adminNodeKeys.configuration(id),
    queryFn: ({ signal }) => getNodeConfiguration(id, signal),
    gcTime: 0,
  });

export function useCreateNode() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createNode,
    onSuccess: (node) => {
      queryClient.setQueryData(adminNodeKeys.detail(node.id), node);
      void queryClient.invalidateQueries({ queryKey: adminNodeKeys.lists() });
    },
  });
}

export function useUpdateNode(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: NodeBody & { reset_secret?: true }) => updateNode(id, body),
    onSuccess: (node) => {
      queryClient.setQueryData(adminNodeKeys.detail(id), node);
      void queryClient.invalidateQueries({ queryKey: adminNodeKeys.configuration(id) });
      void queryClient.invalidateQueries({ queryKey: adminNodeKeys.lists() });
    },
  });
}

export function useDeleteNode() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteNode,
    onSuccess: (_, id) => {
      queryClient.removeQueries({ queryKey: adminNodeKeys.detail(id) });
      void queryClient.invalidateQueries({ queryKey: adminNodeKeys.lists() });
    },
  });
}

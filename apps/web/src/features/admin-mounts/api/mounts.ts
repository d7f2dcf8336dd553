import type { MountBody } from '@aerie/shared/mounts/mounts-bodies';
import type { MountAttributes as MountWire } from '@aerie/shared/mounts/mounts-wire';
import { queryOptions } from '@tanstack/react-query';
import { apiClient } from '@/lib/api-client';
import { type ApplicationList, applicationResource, listQuery, type Page } from '@/lib/application-api';

interface Named {
  id: number;
  name: string;
}

/** A mount as the admin area shows it, with the eggs and nodes it may be used on. */
export interface Mount {
  id: number;
  uuid: string;
  name: string;
  description: string | null;
  source: string;
  target: string;
  readOnly: boolean;
  userMountable: boolean;
  eggs: Named[];
  nodes: Named[];
  /** The ids of the servers that use it (when asked for with the `servers` include). */
  serverIds: number[];
}

interface Related {
  data: { attributes: Named }[];
}

/** `mount` attributes of the Application API, with its includes. */
export interface MountAttributes extends MountWire {
  relationships?: { eggs?: Related; nodes?: Related; servers?: Related };
}

const named = (related: Related | undefined): Named[] =>
  (related?.data ?? []).map(({ attributes }) => ({ id: attributes.id, name: attributes.name }));

export const toMount = (attributes: MountAttributes): Mount => ({
  id: attributes.id,
  uuid: attributes.uuid,
  name: attributes.name,
  description: attributes.description,
  source: attributes.source,
  target: attributes.target,
  readOnly: attributes.read_only,
  userMountable: attributes.user_mountable,
  eggs: named(attributes.relationships?.eggs),
  nodes: named(attributes.relationships?.nodes),
  serverIds: named(attributes.relationships?.servers).map((server) => server.id),
});

export const mountKeys = {
  all: ['admin', 'mounts'] as const,
  list: (page: number) => [...mountKeys.all, 'list', page] as const,
  detail: (id: number) => [...mountKeys.all, 'detail', id] as const,
};

const mounts = applicationResource<MountAttributes, Mount, MountBody>(
  '/api/application/mounts',
  toMount,
  'eggs,nodes',
);

export const getMounts = (page: number, signal?: AbortSignal): Promise<Page<Mount>> =>
  mounts.list(listQuery({ page }), signal);
export const getMount = mounts.get;
export const createMount = mounts.create;
export const updateMount = mounts.update;
/** Refused (400) while a server uses it. */
export const deleteMount = mounts.remove;

export type MountRelation = 'eggs' | 'nodes' | 'servers';

/** Every mount (up to the API's 1,000 a page) with where it may be used and who uses it, for a server's Mounts tab. */
export async function getAllMounts(signal?: AbortSignal): Promise<Mount[]> {
  const list = await apiClient.get<ApplicationList<MountAttributes>>('/api/application/mounts', {
    params: { per_page: 1000, include: 'eggs,nodes,servers' },
    signal,
  });
  return list.data.map(({ attributes }) => toMount(attributes));
}

export const allMountsQueryOptions = () =>
  queryOptions({ queryKey: [...mountKeys.all, 'every'], queryFn: ({ signal }) => getAllMounts(signal) });

/** POST /api/application/mounts/{id}/eggs|nodes|servers: where the mount may be used, or who uses it. */
export async function attachMount(id: number, relation: MountRelation, ids: number[]) {
  await apiClient.post(`/api/application/mounts/${id}/${relation}`, { [relation]: ids });
}

/** DELETE /api/application/mounts/{id}/eggs|nodes|servers/{other} */
export async function detachMount(id: number, relation: MountRelation, other: number) {
  await apiClient.delete(`/api/application/mounts/${id}/${relation}/${other}`);
}

/** Every node by name, for the form's picker. */
export async function getNodeNames(signal?: AbortSignal): Promise<Named[]> {
  const list = await apiClient.get<ApplicationList<Named>>('/api/application/nodes', {
    params: { per_page: 1000 },
    signal,
  });
  return list.data.map(({ attributes }) => ({ id: attributes.id, name: attributes.name }));
}

export const mountsQueryOptions = (page: number) =>
  queryOptions({ queryKey: mountKeys.list(page), queryFn: ({ signal }) => getMounts(page, signal) });

export const mountQueryOptions = (id: number) =>
  queryOptions({ queryKey: mountKeys.detail(id), queryFn: ({ signal }) => getMount(id, signal) });

export const mountNodeNamesQueryOptions = () =>
  queryOptions({ queryKey: [...mountKeys.all, 'node-names'], queryFn: ({ signal }) => getNodeNames(signal) });

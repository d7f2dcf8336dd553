import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '@/lib/api-client';
import { type ApplicationList, applicationResource, listQuery, type Page } from '@/lib/application-api';

/** A location as the admin area shows it (the Application API's `location`). */
export interface AdminLocation {
  id: number;
  short: string;
  long: string | null;
  createdAt: string;
  updatedAt: string;
  /** How many nodes are in it, when asked for with `include=nodes` (null otherwise). */
  nodeCount: number | null;
}

interface LocationAttributes {
  id: number;
  short: string;
  long: string | null;
  updated_at: string;
  created_at: string;
  relationships?: { nodes?: ApplicationList<unknown> | { object: 'null_resource'; attributes: null } };
}

/** What POST and PATCH take (PATCH sends `short` again). */
export interface LocationBody {
  short: string;
  long: string | null;
}

export function toAdminLocation(attributes: LocationAttributes): AdminLocation {
  const nodes = attributes.relationships?.nodes;
  return {
    id: attributes.id,
    short: attributes.short,
    long: attributes.long,
    createdAt: attributes.created_at,
    updatedAt: attributes.updated_at,
    nodeCount: nodes && nodes.object === 'list' ? nodes.data.length : null,
  };
}

export const adminLocationKeys = {
  all: ['admin', 'locations'] as const,
  lists: () => [...adminLocationKeys.all, 'list'] as const,
  list: (page: number) => [...adminLocationKeys.lists(), page] as const,
  /** Every location at once, for pickers (the node form's location). */
  options: () => [...adminLocationKeys.all, 'options'] as const,
};

const base = '/api/application/locations';
const locations = applicationResource<LocationAttributes, AdminLocation, LocationBody>(
  base,
  toAdminLocation,
  'nodes',
);

/** GET /api/application/locations?include=nodes */
export const getLocations = (page: number, signal?: AbortSignal): Promise<Page<AdminLocation>> =>
  locations.list(listQuery({ page }), signal);

/** Every location (up to the API's 1,000 a page), for a drop-down. */
export async function getAllLocations(signal?: AbortSignal): Promise<AdminLocation[]> {
  const list = await apiClient.get<ApplicationList<LocationAttributes>>(base, {
    signal,
    params: listQuery({ perPage: 1000 }),
  });
  return list.data.map((item) => toAdminLocation(item.attributes));
}

/** POST /api/application/locations */
export const createLocation = locations.create;

/** PATCH /api/application/locations/{id} */
export const updateLocation = locations.update;

/** DELETE /api/application/locations/{id}: refused (400) while a node is in it. */
export const deleteLocation = locations.remove;

export const locationsQueryOptions = (page: number) =>
  queryOptions({
    queryKey: adminLocationKeys.list(page),
    queryFn: ({ signal }) => getLocations(page, signal),
    placeholderData: keepPreviousData,
  });

export const locationOptionsQueryOptions = () =>
  queryOptions({
    queryKey: adminLocationKeys.options(),
    queryFn: ({ signal }) => getAllLocations(signal),
  });

/** Create (no id) or update; either way the lists are asked again. */
export function useSaveLocation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id?: number; body: LocationBody }) =>
      id === undefined ? createLocation(body) : updateLocation(id, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: adminLocationKeys.all }),
  });
}

export function useDeleteLocation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteLocation,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: adminLocationKeys.all }),
  });
}

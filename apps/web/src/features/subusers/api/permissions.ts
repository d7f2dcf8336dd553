import type { SystemPermissionsResponse } from '@aerie/shared/permissions/permissions';
import { WEBSOCKET_CONNECT } from '@aerie/shared/permissions/permissions';
import { queryOptions } from '@tanstack/react-query';
import { apiClient } from '@/lib/api-client';

/** One category of the permission catalogue (spec §3 "Permission catalogue"), keys in the panel's order. */
export interface PermissionGroup {
  category: string;
  description: string;
  permissions: { key: string; permission: string; description: string }[];
}

/** GET /api/client/permissions: every category with its keys; a permission string is `category.key`. */
export async function getPermissionCatalogue(signal?: AbortSignal): Promise<PermissionGroup[]> {
  const response = await apiClient.get<SystemPermissionsResponse>('/api/client/permissions', { signal });
  return Object.entries(response.attributes.permissions).map(([category, { description, keys }]) => ({
    category,
    description,
    permissions: Object.entries(keys).map(([key, text]) => ({
      key,
      permission: `${category}.${key}`,
      description: text,
    })),
  }));
}

/** The catalogue is the panel's, the same for every server: loaded once per page load. */
export const permissionCatalogueQueryOptions = () =>
  queryOptions({
    queryKey: ['permissions'] as const,
    queryFn: ({ signal }) => getPermissionCatalogue(signal),
    staleTime: Number.POSITIVE_INFINITY,
  });

/** The websocket category is never shown: every subuser gets `websocket.connect` (spec §6). */
export const isEditorCategory = (group: PermissionGroup) => group.category !== 'websocket';

/** The count a row shows: the permissions without `websocket.connect` (spec §2 "Users"). */
export const visiblePermissionCount = (permissions: readonly string[]) =>
  permissions.filter((permission) => permission !== WEBSOCKET_CONNECT).length;

import { type AdminPermission, isAdminPermission } from '@aerie/shared/admin-roles/admin-permissions';
import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '@/lib/api-client';
import { type ApplicationList, applicationResource, listQuery, type Page } from '@/lib/application-api';

/** An admin role as the admin area shows it (the Application API's `admin_role`). */
export interface AdminRole {
  id: number;
  name: string;
  description: string | null;
  permissions: AdminPermission[];
  createdAt: string;
  updatedAt: string;
}

interface AdminRoleAttributes {
  id: number;
  name: string;
  description: string | null;
  permissions: string[];
  created_at: string;
  updated_at: string;
}

/** What POST and PATCH take (PATCH sends every field again). */
export interface AdminRoleBody {
  name: string;
  description: string | null;
  permissions: AdminPermission[];
}

export const toAdminRole = (attributes: AdminRoleAttributes): AdminRole => ({
  id: attributes.id,
  name: attributes.name,
  description: attributes.description,
  // A permission this build does not know (a newer panel's) is left out rather than shown as a blank row.
  permissions: attributes.permissions.filter(isAdminPermission),
  createdAt: attributes.created_at,
  updatedAt: attributes.updated_at,
});

export const adminRoleKeys = {
  all: ['admin', 'roles'] as const,
  lists: () => [...adminRoleKeys.all, 'list'] as const,
  list: (page: number) => [...adminRoleKeys.lists(), page] as const,
  detail: (id: number) => [...adminRoleKeys.all, 'detail', id] as const,
  /** Every role at once, for the user page's picker. */
  options: () => [...adminRoleKeys.all, 'options'] as const,
};

const base = '/api/application/roles';
const roles = applicationResource<AdminRoleAttributes, AdminRole, AdminRoleBody>(base, toAdminRole);

/** GET /api/application/roles */
export const getAdminRoles = (page: number, signal?: AbortSignal): Promise<Page<AdminRole>> =>
  roles.list(listQuery({ page }), signal);

/** Every role (up to the API's 1,000 a page), for a drop-down. */
export async function getAllAdminRoles(signal?: AbortSignal): Promise<AdminRole[]> {
  const list = await apiClient.get<ApplicationList<AdminRoleAttributes>>(base, {
    signal,
    params: listQuery({ perPage: 1000 }),
  });
  return list.data.map((item) => toAdminRole(item.attributes));
}

/** GET /api/application/roles/{id} */
export const getAdminRole = roles.get;

/** POST /api/application/roles: 403 when it grants what the caller does not hold. */
export const createAdminRole = roles.create;

/** PATCH /api/application/roles/{id} */
export const updateAdminRole = roles.update;

/** DELETE /api/application/roles/{id}: its users lose the admin area at once. */
export const deleteAdminRole = roles.remove;

export const adminRolesQueryOptions = (page: number) =>
  queryOptions({
    queryKey: adminRoleKeys.list(page),
    queryFn: ({ signal }) => getAdminRoles(page, signal),
    placeholderData: keepPreviousData,
  });

export const adminRoleQueryOptions = (id: number) =>
  queryOptions({ queryKey: adminRoleKeys.detail(id), queryFn: ({ signal }) => getAdminRole(id, signal) });

export const adminRoleOptionsQueryOptions = () =>
  queryOptions({ queryKey: adminRoleKeys.options(), queryFn: ({ signal }) => getAllAdminRoles(signal) });

/** Create (no id) or update; the answer is cached as the role and the lists are asked again. */
export function useSaveAdminRole() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id?: number; body: AdminRoleBody }) =>
      id === undefined ? createAdminRole(body) : updateAdminRole(id, body),
    onSuccess: (role) => {
      queryClient.setQueryData(adminRoleKeys.detail(role.id), role);
      void queryClient.invalidateQueries({ queryKey: adminRoleKeys.lists() });
      void queryClient.invalidateQueries({ queryKey: adminRoleKeys.options() });
    },
  });
}

export function useDeleteAdminRole() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteAdminRole,
    // The role's own entry is left to expire: dropping it while its page still shows would load it again.
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: adminRoleKeys.lists() });
      void queryClient.invalidateQueries({ queryKey: adminRoleKeys.options() });
    },
  });
}

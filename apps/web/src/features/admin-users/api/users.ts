import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { type ApplicationList, applicationResource, listQuery, type Page } from '@/lib/application-api';

/** A server in a user's `servers` include: what the user page lists and links to. */
export interface UserServer {
  id: number;
  uuid: string;
  identifier: string;
  name: string;
  status: string | null;
  suspended: boolean;
}

/** A panel user as the admin area shows it (the Application API's `user`). */
export interface AdminUser {
  id: number;
  externalId: string | null;
  uuid: string;
  username: string;
  email: string;
  firstName: string;
  lastName: string;
  language: string;
  rootAdmin: boolean;
  /** The user's admin role, null for none (or when the panel does not say). */
  roleId: number | null;
  twoFactor: boolean;
  createdAt: string;
  updatedAt: string;
  /** The servers the user owns, when asked for with `include=servers` (null when the include was refused). */
  servers: UserServer[] | null;
}

interface UserAttributes {
  id: number;
  external_id: string | null;
  uuid: string;
  username: string;
  email: string;
  /** Null for an account made without names (the first admin `aerie up` creates). */
  first_name: string | null;
  last_name: string | null;
  language: string;
  root_admin: boolean;
  /** Aerie's: the user's admin role. Optional: an answer without it reads as no role. */
  admin_role_id?: number | null;
  '2fa': boolean;
  created_at: string;
  updated_at: string;
  relationships?: {
    servers?: ApplicationList<UserServer> | { object: 'null_resource'; attributes: null };
  };
}

/** What POST and PATCH take (PATCH is a full update: every required field again; no password keeps it). */
export interface UserBody {
  email: string;
  username: string;
  first_name: string;
  last_name: string;
  password?: string;
  root_admin: boolean;
  language?: string;
}

export function toAdminUser(attributes: UserAttributes): AdminUser {
  const servers = attributes.relationships?.servers;
  return {
    id: attributes.id,
    externalId: attributes.external_id,
    uuid: attributes.uuid,
    username: attributes.username,
    email: attributes.email,
    firstName: attributes.first_name ?? '',
    lastName: attributes.last_name ?? '',
    language: attributes.language,
    rootAdmin: attributes.root_admin,
    roleId: attributes.admin_role_id ?? null,
    twoFactor: attributes['2fa'],
    createdAt: attributes.created_at,
    updatedAt: attributes.updated_at,
    servers:
      servers && servers.object === 'list'
        ? servers.data.map(({ attributes: server }) => ({
            id: server.id,
            uuid: server.uuid,
            identifier: server.identifier,
            name: server.name,
            status: server.status,
            suspended: server.suspended,
          }))
        : null,
  };
}

/** Which column the list's search looks in (the API's `filter[email]` / `filter[username]`). */
export type UserSearchField = 'email' | 'username';

export interface UserListParams {
  page: number;
  search: string;
  searchField: UserSearchField;
}

export const adminUserKeys = {
  all: ['admin', 'users'] as const,
  lists: () => [...adminUserKeys.all, 'list'] as const,
  list: (params: UserListParams) => [...adminUserKeys.lists(), params] as const,
  detail: (id: number) => [...adminUserKeys.all, 'detail', id] as const,
};

const users = applicationResource<UserAttributes, AdminUser, UserBody>(
  '/api/application/users',
  toAdminUser,
  'servers',
);

/** GET /api/application/users?include=servers (the servers give the list its count column). */
export const getUsers = (params: UserListParams, signal?: AbortSignal): Promise<Page<AdminUser>> =>
  users.list(listQuery({ page: params.page, filters: { [params.searchField]: params.search } }), signal);

/** GET /api/application/users/{id}?include=servers */
export const getUser = users.get;

/** POST /api/application/users */
export const createUser = users.create;

/** PATCH /api/application/users/{id} */
export const updateUser = users.update;

/** DELETE /api/application/users/{id}: refused (400) while the user owns servers. */
export const deleteUser = users.remove;

export const usersQueryOptions = (params: UserListParams) =>
  queryOptions({
    queryKey: adminUserKeys.list(params),
    queryFn: ({ signal }) => getUsers(params, signal),
    placeholderData: keepPreviousData,
  });

export const userQueryOptions = (id: number) =>
  queryOptions({ queryKey: adminUserKeys.detail(id), queryFn: ({ signal }) => getUser(id, signal) });

export function useCreateUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createUser,
    onSuccess: (user) => {
      queryClient.setQueryData(adminUserKeys.detail(user.id), user);
      void queryClient.invalidateQueries({ queryKey: adminUserKeys.lists() });
    },
  });
}

export function useUpdateUser(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: UserBody) => updateUser(id, body),
    onSuccess: (user) => {
      queryClient.setQueryData(adminUserKeys.detail(id), user);
      void queryClient.invalidateQueries({ queryKey: adminUserKeys.lists() });
    },
  });
}

export function useDeleteUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteUser,
    onSuccess: (_, id) => {
      queryClient.removeQueries({ queryKey: adminUserKeys.detail(id) });
      void queryClient.invalidateQueries({ queryKey: adminUserKeys.lists() });
    },
  });
}

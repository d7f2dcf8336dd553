import type { CreateSubuserBody, UpdateSubuserBody } from '@aerie/shared/subusers/subusers-bodies';
import type {
  SubuserAttributes,
  SubuserListResponse,
  SubuserResponse,
} from '@aerie/shared/subusers/subusers-wire';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { serverKeys } from '@/features/servers/api/servers';
import { apiClient } from '@/lib/api-client';

/** A user invited to a server (spec §3 "Subuser"), as the Users page reads it. */
export interface Subuser {
  uuid: string;
  username: string;
  email: string;
  /** Avatar URL when the panel has an avatar service, else `""` (the page draws the initials). */
  image: string;
  twoFactorEnabled: boolean;
  createdAt: Date;
  /** As stored: catalogue strings, `websocket.connect` among them. */
  permissions: string[];
}

export const toSubuser = (attributes: SubuserAttributes): Subuser => ({
  uuid: attributes.uuid,
  username: attributes.username,
  email: attributes.email,
  image: attributes.image,
  twoFactorEnabled: attributes['2fa_enabled'],
  createdAt: new Date(attributes.created_at),
  permissions: attributes.permissions,
});

const base = (serverId: string) => `/api/client/servers/${encodeURIComponent(serverId)}/users`;
const one = (serverId: string, uuid: string) => `${base(serverId)}/${encodeURIComponent(uuid)}`;

/** Under the server's key, so leaving the server drops the list with everything else. */
export const subuserKeys = {
  list: (serverId: string) => [...serverKeys.detail(serverId), 'users'] as const,
};

/** GET …/users */
export async function getSubusers(serverId: string, signal?: AbortSignal): Promise<Subuser[]> {
  const response = await apiClient.get<SubuserListResponse>(base(serverId), { signal });
  return response.data.map(({ attributes }) => toSubuser(attributes));
}

/** GET …/users/{uuid} (403 for the caller's own row). */
export async function getSubuser(serverId: string, uuid: string, signal?: AbortSignal): Promise<Subuser> {
  const response = await apiClient.get<SubuserResponse>(one(serverId, uuid), { signal });
  return toSubuser(response.attributes);
}

/** POST …/users: invites an email; an address without an account gets one, and a mail to set its password. */
export async function createSubuser(serverId: string, body: CreateSubuserBody): Promise<Subuser> {
  const response = await apiClient.post<SubuserResponse>(base(serverId), body);
  return toSubuser(response.attributes);
}

/** POST …/users/{uuid}: replaces the subuser's permissions. */
export async function updateSubuser(
  serverId: string,
  uuid: string,
  body: UpdateSubuserBody,
): Promise<Subuser> {
  const response = await apiClient.post<SubuserResponse>(one(serverId, uuid), body);
  return toSubuser(response.attributes);
}

/** DELETE …/users/{uuid}: their access ends at once (the node closes their console and SFTP sessions). */
export async function deleteSubuser(serverId: string, uuid: string): Promise<void> {
  await apiClient.delete(one(serverId, uuid));
}

export const subusersQueryOptions = (serverId: string) =>
  queryOptions({
    queryKey: subuserKeys.list(serverId),
    queryFn: ({ signal }) => getSubusers(serverId, signal),
  });

/** What the modal saves: an invitation when `uuid` is absent, else new permissions for that subuser. */
export type SaveSubuserInput =
  | { uuid?: undefined; email: string; permissions: string[] }
  | { uuid: string; permissions: string[] };

/** Invites or updates a subuser; the answer takes its place in the cached list (appended when new). */
export function useSaveSubuser(serverId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: SaveSubuserInput) =>
      input.uuid === undefined
        ? createSubuser(serverId, { email: input.email, permissions: input.permissions })
        : updateSubuser(serverId, input.uuid, { permissions: input.permissions }),
    onSuccess: (saved) =>
      queryClient.setQueryData<Subuser[]>(subuserKeys.list(serverId), (list = []) =>
        list.some((subuser) => subuser.uuid === saved.uuid)
          ? list.map((subuser) => (subuser.uuid === saved.uuid ? saved : subuser))
          : [...list, saved],
      ),
  });
}

/** Removes a subuser and drops them from the cached list after the 204. */
export function useDeleteSubuser(serverId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (uuid: string) => deleteSubuser(serverId, uuid),
    onSuccess: (_nothing, uuid) =>
      queryClient.setQueryData<Subuser[]>(subuserKeys.list(serverId), (list) =>
        list?.filter((subuser) => subuser.uuid !== uuid),
      ),
  });
}

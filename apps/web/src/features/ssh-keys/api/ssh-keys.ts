import type {
  CreateSshKeyBody,
  RemoveSshKeyBody,
  SshKeyItem,
  SshKeyList,
} from '@aerie/shared/ssh-keys/ssh-keys-wire';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '@/lib/api-client';

/** An SSH public key of the account, used to log in over SFTP (reference §6 `ssh_key`). */
export interface SshKey {
  name: string;
  /** SHA-256 of the key, unpadded base64, without the `SHA256:` prefix (`displayFingerprint` adds it). */
  fingerprint: string;
  /** The key as the panel keeps it: PKCS#8 PEM. */
  publicKey: string;
  createdAt: Date;
}

export function toSshKey({ attributes }: SshKeyItem): SshKey {
  return {
    name: attributes.name,
    fingerprint: attributes.fingerprint,
    publicKey: attributes.public_key,
    createdAt: new Date(attributes.created_at),
  };
}

/** The fingerprint the way OpenSSH prints it (`ssh-keygen -lf`), so a user can compare it with their key's. */
export const displayFingerprint = (key: Pick<SshKey, 'fingerprint'>) => `SHA256:${key.fingerprint}`;

export const sshKeyKeys = {
  all: ['account', 'ssh-keys'] as const,
  list: () => [...sshKeyKeys.all, 'list'] as const,
  create: () => [...sshKeyKeys.all, 'create'] as const,
  remove: () => [...sshKeyKeys.all, 'remove'] as const,
};

/** GET /api/client/account/ssh-keys */
export async function getSshKeys(signal?: AbortSignal): Promise<SshKey[]> {
  const response = await apiClient.get<SshKeyList>('/api/client/account/ssh-keys', { signal });
  return response.data.map(toSshKey);
}

/** POST /api/client/account/ssh-keys */
export async function createSshKey(body: CreateSshKeyBody): Promise<SshKey> {
  return toSshKey(await apiClient.post<SshKeyItem>('/api/client/account/ssh-keys', body));
}

/** POST /api/client/account/ssh-keys/remove (204, even when no key of the account had that fingerprint). */
export async function removeSshKey(fingerprint: string): Promise<void> {
  const body: RemoveSshKeyBody = { fingerprint };
  await apiClient.post('/api/client/account/ssh-keys/remove', body);
}

export const sshKeysQueryOptions = () =>
  queryOptions({ queryKey: sshKeyKeys.list(), queryFn: ({ signal }) => getSshKeys(signal) });

/** Adds a key and appends it to the cached list, so the list shows it without another request. */
export function useCreateSshKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: sshKeyKeys.create(),
    mutationFn: createSshKey,
    onSuccess: (key) => {
      queryClient.setQueryData<SshKey[]>(sshKeyKeys.list(), (keys) => [...(keys ?? []), key]);
    },
  });
}

/** Removes a key by its fingerprint and drops it from the cached list. */
export function useRemoveSshKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: sshKeyKeys.remove(),
    mutationFn: removeSshKey,
    onSuccess: (_, fingerprint) => {
      queryClient.setQueryData<SshKey[]>(sshKeyKeys.list(), (keys) =>
        keys?.filter((key) => key.fingerprint !== fingerprint),
      );
    },
  });
}

import type { LoginResponse } from '@aerie/shared/auth/auth-forms';
import type {
  CreatePasskeyBody,
  PasskeyCheckpointBody,
  PasskeyItem,
  PasskeyList,
  PasskeyOptionsResponse,
  PasskeyRegistrationOptionsBody,
  RenamePasskeyBody,
} from '@aerie/shared/passkeys/passkeys-wire';
import type {
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
} from '@simplewebauthn/browser';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '@/lib/api-client';

/** A passkey of the account, as the account page lists it. */
export interface Passkey {
  id: number;
  name: string;
  /** Synced between the user's devices by their password manager or platform. */
  synced: boolean;
  createdAt: Date;
  lastUsedAt: Date | null;
}

export const toPasskey = ({ attributes }: PasskeyItem): Passkey => ({
  id: attributes.id,
  name: attributes.name,
  synced: attributes.synced,
  createdAt: new Date(attributes.created_at),
  lastUsedAt: attributes.last_used_at ? new Date(attributes.last_used_at) : null,
});

export const passkeyKeys = {
  all: ['account', 'passkeys'] as const,
  list: () => [...passkeyKeys.all, 'list'] as const,
};

// The browser half of WebAuthn loads only when a ceremony starts, not with every page.
const webAuthn = () => import('@simplewebauthn/browser');

/** Whether this browser can make and use passkeys at all. */
export const browserSupportsPasskeys = (): boolean =>
  typeof window !== 'undefined' && typeof window.PublicKeyCredential === 'function';

/** GET /api/client/account/passkeys */
export async function getPasskeys(signal?: AbortSignal): Promise<Passkey[]> {
  const response = await apiClient.get<PasskeyList>('/api/client/account/passkeys', { signal });
  return response.data.map(toPasskey);
}

export const passkeysQueryOptions = () =>
  queryOptions({ queryKey: passkeyKeys.list(), queryFn: ({ signal }) => getPasskeys(signal) });

/**
 * Registers a passkey: the panel checks the password and hands out creation options, the browser asks the user's
 * authenticator for a new credential, the panel verifies and stores it.
 */
export async function registerPasskey(input: { name: string; password: string }): Promise<Passkey> {
  const optionsBody: PasskeyRegistrationOptionsBody = { password: input.password };
  const { data } = await apiClient.post<PasskeyOptionsResponse<PublicKeyCredentialCreationOptionsJSON>>(
    '/api/client/account/passkeys/options',
    optionsBody,
  );
  const credential = await (await webAuthn()).startRegistration({ optionsJSON: data });
  const body: CreatePasskeyBody = { name: input.name, credential };
  return toPasskey(await apiClient.post<PasskeyItem>('/api/client/account/passkeys', body));
}

/** PATCH /api/client/account/passkeys/{id} */
export async function renamePasskey(id: number, name: string): Promise<Passkey> {
  const body: RenamePasskeyBody = { name };
  return toPasskey(await apiClient.patch<PasskeyItem>(`/api/client/account/passkeys/${id}`, body));
}

/** DELETE /api/client/account/passkeys/{id} */
export async function removePasskey(id: number): Promise<void> {
  await apiClient.delete(`/api/client/account/passkeys/${id}`);
}

/** Signs in with a passkey the browser offers (no username, no password). */
export async function signInWithPasskey(): Promise<LoginResponse['data']> {
  const { data } =
    await apiClient.post<PasskeyOptionsResponse<PublicKeyCredentialRequestOptionsJSON>>(
      '/auth/passkey/options',
    );
  const credential = await (await webAuthn()).startAuthentication({ optionsJSON: data });
  return (await apiClient.post<LoginResponse>('/auth/passkey', { credential })).data;
}

/** The 2FA step of a password sign-in, answered with one of the account's passkeys instead of a code. */
export async function checkpointWithPasskey(confirmationToken: string): Promise<LoginResponse['data']> {
  const optionsBody: PasskeyCheckpointBody = { confirmation_token: confirmationToken };
  const { data } = await apiClient.post<PasskeyOptionsResponse<PublicKeyCredentialRequestOptionsJSON>>(
    '/auth/login/checkpoint/passkey/options',
    optionsBody,
  );
  const credential = await (await webAuthn()).startAuthentication({ optionsJSON: data });
  const body: PasskeyCheckpointBody = { confirmation_token: confirmationToken, credential };
  return (await apiClient.post<LoginResponse>('/auth/login/checkpoint/passkey', body)).data;
}

/** Whether an error is the browser's: the user cancelled, the time ran out, or no authenticator could answer. */
export const isCeremonyAbandoned = (error: unknown): boolean =>
  error instanceof Error && ['NotAllowedError', 'AbortError', 'InvalidStateError'].includes(error.name);

export function useRegisterPasskey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: registerPasskey,
    onSuccess: (passkey) =>
      queryClient.setQueryData<Passkey[]>(passkeyKeys.list(), (list) => [...(list ?? []), passkey]),
  });
}

export function useRenamePasskey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, name }: { id: number; name: string }) => renamePasskey(id, name),
    onSuccess: (passkey) =>
      queryClient.setQueryData<Passkey[]>(passkeyKeys.list(), (list) =>
        list?.map((item) => (item.id === passkey.id ? passkey : item)),
      ),
  });
}

export function useRemovePasskey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: removePasskey,
    onSuccess: (_, id) =>
      queryClient.setQueryData<Passkey[]>(passkeyKeys.list(), (list) =>
        list?.filter((item) => item.id !== id),
      ),
  });
}

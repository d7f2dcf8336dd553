import type {
  EnableTwoFactorBody,
  RecoveryTokensResponse,
  TwoFactorSetupResponse,
} from '@aerie/shared/account/account-wire';
import { queryOptions, useMutation } from '@tanstack/react-query';
import { apiClient } from '@/lib/api-client';

export interface TwoFactorSetup {
  /** The otpauth:// URI the QR code encodes. */
  uri: string;
  secret: string;
}

export const twoFactorKeys = {
  all: ['account', 'two-factor'] as const,
  setup: () => [...twoFactorKeys.all, 'setup'] as const,
  enable: () => [...twoFactorKeys.all, 'enable'] as const,
  disable: () => [...twoFactorKeys.all, 'disable'] as const,
};

/** GET /api/client/account/two-factor: every call makes the panel store a new, not yet active, secret. */
export async function getTwoFactorSetup(signal?: AbortSignal): Promise<TwoFactorSetup> {
  // Not sent twice: each GET makes the panel draw a new secret.
  const { data } = await apiClient.get<TwoFactorSetupResponse>('/api/client/account/two-factor', {
    signal,
    retries: 0,
  });
  return { uri: data.image_url_data, secret: data.secret };
}

/** POST /api/client/account/two-factor: turns two-factor on and answers with the recovery codes. */
export async function enableTwoFactor(body: EnableTwoFactorBody): Promise<string[]> {
  const response = await apiClient.post<RecoveryTokensResponse>('/api/client/account/two-factor', body);
  return response.attributes.tokens;
}

/** DELETE /api/client/account/two-factor?password=…: 204 once the password matched. */
export async function disableTwoFactor(password: string): Promise<void> {
  await apiClient.delete('/api/client/account/two-factor', { params: { password } });
}

/**
 * The setup data lives only while the setup modal shows it: nothing is cached after it closes, so the next
 * opening asks for a fresh secret (the panel replaced the old one anyway).
 */
export const twoFactorSetupQueryOptions = () =>
  queryOptions({
    queryKey: twoFactorKeys.setup(),
    queryFn: ({ signal }) => getTwoFactorSetup(signal),
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: 0,
    retry: false,
  });

export const useEnableTwoFactor = () =>
  useMutation({ mutationKey: twoFactorKeys.enable(), mutationFn: enableTwoFactor });

export const useDisableTwoFactor = () =>
  useMutation({ mutationKey: twoFactorKeys.disable(), mutationFn: disableTwoFactor });

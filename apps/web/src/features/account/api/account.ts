import type {
  UpdateEmailBody,
  UpdateLanguageBody,
  UpdatePasswordBody,
} from '@aerie/shared/account/account-wire';
import { useMutation } from '@tanstack/react-query';
import { apiClient } from '@/lib/api-client';

export const accountKeys = {
  all: ['account'] as const,
  updateEmail: () => [...accountKeys.all, 'email'] as const,
  updatePassword: () => [...accountKeys.all, 'password'] as const,
  updateLanguage: () => [...accountKeys.all, 'language'] as const,
};

/** PUT /api/client/account/email: 204 once the password matched and the address is free. */
export async function updateEmail(body: UpdateEmailBody): Promise<void> {
  await apiClient.put('/api/client/account/email', body);
}

/** PUT /api/client/account/password: 204; the panel signs the account's other sessions out. */
export async function updatePassword(body: UpdatePasswordBody): Promise<void> {
  await apiClient.put('/api/client/account/password', body);
}

/** PUT /api/client/account/language: 204; the account's pages and mail use it from now on. */
export async function updateLanguage(body: UpdateLanguageBody): Promise<void> {
  await apiClient.put('/api/client/account/language', body);
}

export const useUpdateEmail = () =>
  useMutation({ mutationKey: accountKeys.updateEmail(), mutationFn: updateEmail });

export const useUpdatePassword = () =>
  useMutation({ mutationKey: accountKeys.updatePassword(), mutationFn: updatePassword });

export const useUpdateLanguage = () =>
  useMutation({ mutationKey: accountKeys.updateLanguage(), mutationFn: updateLanguage });

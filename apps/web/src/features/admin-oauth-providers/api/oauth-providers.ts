import type { OAuthProviderCreateBody, OAuthProviderUpdateBody } from '@aerie/shared/oauth/oauth-bodies';
import type { OAuthProviderAttributes, OAuthProviderKind } from '@aerie/shared/oauth/oauth-wire';
import { queryOptions } from '@tanstack/react-query';
import { apiClient } from '@/lib/api-client';
import { type ApplicationItem, applicationResource, listQuery, type Page } from '@/lib/application-api';

/** A sign-in provider as the admin area shows it. The client secret itself never leaves the panel. */
export interface OAuthProvider {
  id: number;
  slug: string;
  name: string;
  kind: OAuthProviderKind;
  /** OpenID Connect only. */
  issuer: string | null;
  clientId: string;
  clientSecretSet: boolean;
  scopes: string[];
  enabled: boolean;
  createAccounts: boolean;
  /** Empty: any domain. */
  emailDomains: string[];
  allowTwoFactorAccounts: boolean;
  /** What to register at the provider. */
  redirectUri: string;
}

export const toOAuthProvider = (attributes: OAuthProviderAttributes): OAuthProvider => ({
  id: attributes.id,
  slug: attributes.slug,
  name: attributes.name,
  kind: attributes.kind,
  issuer: attributes.issuer,
  clientId: attributes.client_id,
  clientSecretSet: attributes.client_secret_set,
  scopes: attributes.scopes,
  enabled: attributes.enabled,
  createAccounts: attributes.create_accounts,
  emailDomains: attributes.email_domains,
  allowTwoFactorAccounts: attributes.allow_two_factor_accounts,
  redirectUri: attributes.redirect_uri,
});

export const oauthProviderKeys = {
  all: ['admin', 'oauth-providers'] as const,
  list: (page: number) => [...oauthProviderKeys.all, 'list', page] as const,
  detail: (id: number) => [...oauthProviderKeys.all, 'detail', id] as const,
};

const base = '/api/application/oauth-providers';
const providers = applicationResource<OAuthProviderAttributes, OAuthProvider>(base, toOAuthProvider);

export const getOAuthProviders = (page: number, signal?: AbortSignal): Promise<Page<OAuthProvider>> =>
  providers.list(listQuery({ page }), signal);
export const getOAuthProvider = providers.get;
export const deleteOAuthProvider = providers.remove;

/** POST /api/application/oauth-providers (201) */
export async function createOAuthProvider(body: OAuthProviderCreateBody): Promise<OAuthProvider> {
  const item = await apiClient.post<ApplicationItem<OAuthProviderAttributes>>(base, body);
  return toOAuthProvider(item.attributes);
}

/** PATCH /api/application/oauth-providers/{id}: the fields sent change; no `client_secret` keeps the saved one. */
export async function updateOAuthProvider(id: number, body: OAuthProviderUpdateBody): Promise<OAuthProvider> {
  const item = await apiClient.patch<ApplicationItem<OAuthProviderAttributes>>(`${base}/${id}`, body);
  return toOAuthProvider(item.attributes);
}

export const oauthProvidersQueryOptions = (page: number) =>
  queryOptions({
    queryKey: oauthProviderKeys.list(page),
    queryFn: ({ signal }) => getOAuthProviders(page, signal),
  });

export const oauthProviderQueryOptions = (id: number) =>
  queryOptions({
    queryKey: oauthProviderKeys.detail(id),
    queryFn: ({ signal }) => getOAuthProvider(id, signal),
  });

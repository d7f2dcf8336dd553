import {
  type AccountOAuthLink,
  type OAuthProviderKind,
  type PublicOAuthProvider,
  type SsoErrorCode,
  ssoErrorCodes,
} from '@aerie/shared/oauth/oauth-wire';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '@/lib/api-client';

/** An identity provider the sign-in page offers (GET /auth/oauth/providers: the enabled ones). */
export type SignInProvider = PublicOAuthProvider;

/** Where a provider sign-in starts: a full page navigation, the panel redirects to the provider. */
export const oauthRedirectPath = (slug: string, { link = false }: { link?: boolean } = {}): string =>
  `/auth/oauth/${encodeURIComponent(slug)}/redirect${link ? '?link=1' : ''}`;

/** The query parameter a failed sign-in (`/auth/login`) or link (`/account`) comes back with. */
export const ssoErrorParam = 'sso_error';

/** The failure a page's query names, or null (an unknown code reads as `failed`). */
export function ssoErrorFrom(search: URLSearchParams): SsoErrorCode | null {
  const code = search.get(ssoErrorParam);
  if (code === null || code === '') return null;
  return (ssoErrorCodes as readonly string[]).includes(code) ? (code as SsoErrorCode) : 'failed';
}

/** GET /auth/oauth/providers: one button each on the sign-in page. */
export async function getSignInProviders(signal?: AbortSignal): Promise<SignInProvider[]> {
  const response = await apiClient.get<{ data?: SignInProvider[] }>('/auth/oauth/providers', { signal });
  return Array.isArray(response.data) ? response.data : [];
}

/**
 * GET /auth/oauth/checkpoint: the confirmation token of the 2FA step a provider sign-in left pending in this
 * session (each call hands out a fresh one). 400 when nothing is pending or it expired.
 */
export async function getOAuthCheckpointToken(signal?: AbortSignal): Promise<string> {
  const response = await apiClient.get<{ data: { confirmation_token: string } }>('/auth/oauth/checkpoint', {
    signal,
    retries: 0,
  });
  return response.data.confirmation_token;
}

/** An enabled provider as the account page shows it, and whether the account signs in with it. */
export interface OAuthLink {
  slug: string;
  name: string;
  kind: OAuthProviderKind;
  linked: boolean;
  linkedAt: Date | null;
  /** The provider's email for the account when it was linked. */
  email: string | null;
}

interface OAuthLinkList {
  object: 'list';
  data: { object: 'oauth_link'; attributes: AccountOAuthLink }[];
}

export const toOAuthLink = (attributes: AccountOAuthLink): OAuthLink => ({
  slug: attributes.slug,
  name: attributes.name,
  kind: attributes.kind,
  linked: attributes.linked,
  linkedAt: attributes.linked_at ? new Date(attributes.linked_at) : null,
  email: attributes.email,
});

export const oauthLinkKeys = {
  all: ['account', 'oauth'] as const,
  list: () => [...oauthLinkKeys.all, 'list'] as const,
};

/** GET /api/client/account/oauth */
export async function getOAuthLinks(signal?: AbortSignal): Promise<OAuthLink[]> {
  const response = await apiClient.get<OAuthLinkList>('/api/client/account/oauth', { signal });
  return response.data.map(({ attributes }) => toOAuthLink(attributes));
}

export const oauthLinksQueryOptions = () =>
  queryOptions({ queryKey: oauthLinkKeys.list(), queryFn: ({ signal }) => getOAuthLinks(signal) });

/** DELETE /api/client/account/oauth/{slug}: refused (400) when it is the account's last way in. */
export async function unlinkOAuthProvider(slug: string): Promise<void> {
  await apiClient.delete(`/api/client/account/oauth/${encodeURIComponent(slug)}`);
}

/** Unlinks, then shows the provider as not linked in the cached list. */
export function useUnlinkOAuthProvider() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: unlinkOAuthProvider,
    onSuccess: (_result, slug) => {
      queryClient.setQueryData<OAuthLink[]>(oauthLinkKeys.list(), (links) =>
        links?.map((link) =>
          link.slug === slug ? { ...link, linked: false, linkedAt: null, email: null } : link,
        ),
      );
    },
  });
}

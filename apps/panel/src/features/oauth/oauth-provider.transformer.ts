import { toWireDate } from '@aerie/panel/db/dialect';
import type { Transformer } from '@aerie/panel/http/application/transformer';
import type { OAuthProviderAttributes } from '@aerie/shared/oauth/oauth-wire';
import type { OAuthProvider } from './oauth-provider';

/** Where a provider sends users back: what an admin registers at the provider. */
export const callbackUrlOf = (appUrl: string, slug: string) => `${appUrl}/auth/oauth/${slug}/callback`;

/** `oauth_provider` of /api/application/oauth-providers: the client secret only as whether one is set. */
export const oauthProviderTransformer = (appUrl: string): Transformer<OAuthProvider> => ({
  object: 'oauth_provider',
  attributes: (provider): OAuthProviderAttributes & Record<string, unknown> => ({
    id: provider.id,
    slug: provider.slug,
    name: provider.name,
    kind: provider.kind,
    issuer: provider.issuer,
    client_id: provider.clientId,
    client_secret_set: provider.sealedClientSecret !== '',
    scopes: provider.scopes,
    enabled: provider.enabled,
    create_accounts: provider.createAccounts,
    email_domains: provider.emailDomains,
    allow_two_factor_accounts: provider.allowTwoFactorAccounts,
    redirect_uri: callbackUrlOf(appUrl, provider.slug),
    created_at: toWireDate(provider.createdAt),
    updated_at: toWireDate(provider.updatedAt),
  }),
});

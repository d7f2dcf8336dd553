import type { OAuthProviderKind } from '@aerie/shared/oauth/oauth-wire';
import type { ServerMetadata } from 'openid-client';

/**
 * Discord and GitHub speak OAuth2 without OpenID Connect: their endpoints are fixed (no discovery) and who the user
 * is comes from their user API, not an ID token.
 */
export const oauthPresets = {
  discord: {
    metadata: {
      issuer: 'https://discord.com',
      authorization_endpoint: 'https://discord.com/oauth2/authorize',
      token_endpoint: 'https://discord.com/api/oauth2/token',
      userinfo_endpoint: 'https://discord.com/api/users/@me',
    },
    scopes: ['identify', 'email'],
  },
  github: {
    metadata: {
      issuer: 'https://github.com',
      authorization_endpoint: 'https://github.com/login/oauth/authorize',
      token_endpoint: 'https://github.com/login/oauth/access_token',
      userinfo_endpoint: 'https://api.github.com/user',
    },
    // The account's addresses, with which is primary and which verified, are at `<userinfo_endpoint>/emails`.
    scopes: ['read:user', 'user:email'],
  },
} as const satisfies OAuthPresets;

/** Where each OAuth2 preset's endpoints are: Discord's and GitHub's own, or (tests) a stand-in of theirs. */
export type OAuthPresets = Record<
  Exclude<OAuthProviderKind, 'oidc'>,
  { metadata: ServerMetadata & { userinfo_endpoint: string }; scopes: readonly string[] }
>;

/** OpenID Connect: who the user is, and their email. */
const OIDC_SCOPES = ['openid', 'email', 'profile'];

/** The scopes a provider asks for: the admin's, else its kind's; OpenID Connect always with `openid`. */
export function scopesFor(kind: OAuthProviderKind, configured: readonly string[]): string[] {
  if (kind !== 'oidc') return configured.length > 0 ? [...configured] : [...oauthPresets[kind].scopes];
  if (configured.length === 0) return [...OIDC_SCOPES];
  return configured.includes('openid') ? [...configured] : ['openid', ...configured];
}

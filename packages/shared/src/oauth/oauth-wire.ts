/** What kind of identity provider: any OpenID Connect issuer, or one of the OAuth2 presets. */
export const oauthProviderKinds = ['oidc', 'discord', 'github'] as const;

export type OAuthProviderKind = (typeof oauthProviderKinds)[number];

/** `oauth_provider` item of /api/application/oauth-providers. The client secret itself never leaves the panel. */
export interface OAuthProviderAttributes {
  id: number;
  slug: string;
  name: string;
  kind: OAuthProviderKind;
  /** OpenID Connect only: the issuer whose `/.well-known/openid-configuration` is read. */
  issuer: string | null;
  client_id: string;
  client_secret_set: boolean;
  scopes: string[];
  enabled: boolean;
  create_accounts: boolean;
  /** Lower-case; empty: any domain. */
  email_domains: string[];
  allow_two_factor_accounts: boolean;
  /** What to register at the provider: `<APP_URL>/auth/oauth/<slug>/callback`. */
  redirect_uri: string;
  created_at: string;
  updated_at: string;
}

/** One button of the sign-in page: GET /auth/oauth/providers. */
export interface PublicOAuthProvider {
  slug: string;
  name: string;
  kind: OAuthProviderKind;
}

/** GET /api/client/account/oauth: each enabled provider, and whether the account is linked to it. */
export interface AccountOAuthLink {
  slug: string;
  name: string;
  kind: OAuthProviderKind;
  linked: boolean;
  linked_at: string | null;
  /** The provider's email for the account when it was linked. */
  email: string | null;
}

/**
 * Why a provider sign-in or link ended on `/auth/login?sso_error=<code>` (a link: `/account?sso_error=<code>`).
 * - `state`: the answer belongs to no sign-in this browser started (state, nonce or PKCE did not match, or expired)
 * - `denied`: the user declined at the provider
 * - `no_account`: no account is linked and this provider may not create one (or its email is not verified)
 * - `email_taken`: an account with the provider's email exists but was never linked to it
 * - `domain`: the email's domain is not one this provider accepts
 * - `linked_elsewhere`: the provider's account is linked to another panel account
 * - `disabled`: the provider is unknown or turned off
 * - `throttled`: too many failed sign-ins from this address
 * - `failed`: anything else (the provider could not be reached, answered wrongly…); the panel's log says what
 */
export const ssoErrorCodes = [
  'state',
  'denied',
  'no_account',
  'email_taken',
  'domain',
  'linked_elsewhere',
  'disabled',
  'throttled',
  'failed',
] as const;

export type SsoErrorCode = (typeof ssoErrorCodes)[number];

import * as client from 'openid-client';
import type { OAuthProvider } from './oauth-provider';

/** Who the provider says the user is. */
export interface ProviderIdentity {
  /** Stable at the provider: the `sub` claim, Discord's or GitHub's user id. */
  subject: string;
  /** Lower-case; null when the provider gave none. */
  email: string | null;
  emailVerified: boolean;
  /** Candidates for a new account's username, best first. */
  usernameHints: string[];
  nameFirst: string | null;
  nameLast: string | null;
}

type Claims = Record<string, unknown>;

const text = (value: unknown): string | null =>
  typeof value === 'string' && value.trim() !== '' ? value.trim() : null;

/** `email_verified` is a boolean by the spec; some providers send the string. */
const verified = (value: unknown) => value === true || value === 'true';

async function readJson(response: Response, what: string): Promise<unknown> {
  if (!response.ok) throw new Error(`${what} answered ${response.status}`);
  return response.json();
}

/** OpenID Connect: the checked ID token's claims, completed from the UserInfo endpoint when they lack the email. */
async function oidcIdentity(
  config: client.Configuration,
  tokens: client.TokenEndpointResponse & client.TokenEndpointResponseHelpers,
): Promise<ProviderIdentity> {
  const idClaims = tokens.claims();
  if (!idClaims) throw new Error('the provider returned no ID token');
  let claims: Claims = { ...idClaims };
  if (!text(claims.email) && config.serverMetadata().userinfo_endpoint) {
    claims = { ...(await client.fetchUserInfo(config, tokens.access_token, idClaims.sub)), ...claims };
  }
  return {
    subject: idClaims.sub,
    email: text(claims.email)?.toLowerCase() ?? null,
    emailVerified: verified(claims.email_verified),
    usernameHints: [claims.preferred_username, claims.nickname, claims.email].map(text).filter(isString),
    nameFirst: text(claims.given_name),
    nameLast: text(claims.family_name),
  };
}

const isString = (value: string | null): value is string => value !== null;

/** The preset's user API (its metadata's `userinfo_endpoint`, see oauth-presets.ts). */
function userApi(config: client.Configuration): string {
  const endpoint = config.serverMetadata().userinfo_endpoint;
  if (!endpoint) throw new Error('the preset names no user endpoint');
  return endpoint;
}

/** Discord: `/users/@me` (`identify email`): id, username, email and whether Discord verified it. */
async function discordIdentity(config: client.Configuration, accessToken: string): Promise<ProviderIdentity> {
  const url = new URL(userApi(config));
  const user = (await readJson(
    await client.fetchProtectedResource(config, accessToken, url, 'GET'),
    'Discord',
  )) as Claims;
  const id = text(user.id);
  if (!id) throw new Error('Discord returned no user id');
  return {
    subject: id,
    email: text(user.email)?.toLowerCase() ?? null,
    emailVerified: verified(user.verified),
    usernameHints: [user.username, user.global_name, user.email].map(text).filter(isString),
    nameFirst: null,
    nameLast: null,
  };
}

/** GitHub: `/user` for the id and login, `/user/emails` beside it for the primary address GitHub verified. */
async function githubIdentity(config: client.Configuration, accessToken: string): Promise<ProviderIdentity> {
  const headers = new Headers({ accept: 'application/vnd.github+json' });
  const get = async (endpoint: string) =>
    readJson(
      await client.fetchProtectedResource(config, accessToken, new URL(endpoint), 'GET', undefined, headers),
      'GitHub',
    );
  const user = (await get(userApi(config))) as Claims;
  const emails = await get(`${userApi(config)}/emails`);
  const primary = (Array.isArray(emails) ? (emails as Claims[]) : []).find(
    (entry) => entry.primary === true && entry.verified === true,
  );
  const id = typeof user.id === 'number' || typeof user.id === 'string' ? String(user.id) : null;
  if (!id) throw new Error('GitHub returned no user id');
  return {
    subject: id,
    email: text(primary?.email)?.toLowerCase() ?? null,
    emailVerified: primary !== undefined,
    usernameHints: [user.login, primary?.email].map(text).filter(isString),
    nameFirst: null,
    nameLast: null,
  };
}

/** Reads who signed in from the token response, as the provider's kind says. */
export function identityFrom(
  provider: OAuthProvider,
  config: client.Configuration,
  tokens: client.TokenEndpointResponse & client.TokenEndpointResponseHelpers,
): Promise<ProviderIdentity> {
  switch (provider.kind) {
    case 'oidc':
      return oidcIdentity(config, tokens);
    case 'discord':
      return discordIdentity(config, tokens.access_token);
    case 'github':
      return githubIdentity(config, tokens.access_token);
  }
}

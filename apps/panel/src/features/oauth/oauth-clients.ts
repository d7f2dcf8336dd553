import type { SecretBox } from '@aerie/panel/crypto/secret-box';
import type { OAuthFlow } from '@aerie/panel/features/auth/session/session-data';
import type { GuardedFetch } from '@aerie/panel/http/outbound/guarded-fetch';
import type { OutboundPolicy } from '@aerie/panel/http/outbound/outbound-policy';
import * as client from 'openid-client';
import { OAuthFailure } from './oauth-failure';
import { identityFrom, type ProviderIdentity } from './oauth-identity';
import { type OAuthPresets, oauthPresets, scopesFor } from './oauth-presets';
import type { OAuthProvider } from './oauth-provider';
import { callbackUrlOf } from './oauth-provider.transformer';

/** How long a started flow may take at the provider. */
export const OAUTH_FLOW_TTL_MS = 10 * 60 * 1000;

/** Seconds a call to a provider may take (openid-client's own time-out; the guarded fetch has one too). */
const CALL_TIMEOUT_SECONDS = 10;

/**
 * The panel as an OAuth client of each provider, through openid-client: the configuration (discovered for OpenID
 * Connect, fixed for the presets) cached per provider and version, so an update or a new secret is picked up at
 * once, here and on every other panel; every call goes through the outbound guard.
 */
export class OAuthClients {
  readonly #configurations = new Map<number, { version: string; config: Promise<client.Configuration> }>();

  constructor(
    private readonly deps: {
      appUrl: string;
      secretBox: SecretBox;
      policy: OutboundPolicy;
      fetch: GuardedFetch;
      clock: () => Date;
      /** Discord's and GitHub's endpoints; the tests point them at a stand-in on loopback. */
      presets?: OAuthPresets;
    },
  ) {}

  /** Drops what is cached for a provider (it changed or went). */
  forget(providerId: number): void {
    this.#configurations.delete(providerId);
  }

  /**
   * Starts a flow: the provider's authorization URL, and what the session must keep to check the answer.
   * @throws OAuthFailure `failed` when the provider cannot be reached or described
   */
  async start(
    provider: OAuthProvider,
    purpose: OAuthFlow['purpose'],
    userId: number | null,
  ): Promise<{ url: URL; flow: OAuthFlow }> {
    const config = await this.configurationFor(provider);
    const codeVerifier = client.randomPKCECodeVerifier();
    const state = client.randomState();
    const nonce = provider.kind === 'oidc' ? client.randomNonce() : null;
    const parameters: Record<string, string> = {
      redirect_uri: callbackUrlOf(this.deps.appUrl, provider.slug),
      scope: scopesFor(provider.kind, provider.scopes).join(' '),
      code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: 'S256',
      state,
      ...(nonce ? { nonce } : {}),
    };
    return {
      url: client.buildAuthorizationUrl(config, parameters),
      flow: {
        providerId: provider.id,
        purpose,
        userId,
        state,
        nonce,
        codeVerifier,
        expiresAt: this.deps.clock().getTime() + OAUTH_FLOW_TTL_MS,
      },
    };
  }

  /**
   * Ends a flow: the code exchanged with PKCE, state and (OpenID Connect) nonce checked, the ID token verified by
   * openid-client, then who the user is.
   * @param query the callback's query string, as the provider sent it
   * @throws OAuthFailure `denied` (the user said no), `state` (state or nonce not this flow's), `failed`
   */
  async finish(provider: OAuthProvider, flow: OAuthFlow, query: string): Promise<ProviderIdentity> {
    const config = await this.configurationFor(provider);
    const current = new URL(`${callbackUrlOf(this.deps.appUrl, provider.slug)}?${query}`);
    // The state first: nothing is read from an answer this browser did not ask for.
    if (current.searchParams.get('state') !== flow.state) {
      throw new OAuthFailure('state', 'the state is not the one this browser was given');
    }
    const error = current.searchParams.get('error');
    if (error) {
      throw new OAuthFailure(
        error === 'access_denied' ? 'denied' : 'failed',
        `the provider answered ${error}`,
      );
    }
    let tokens: Awaited<ReturnType<typeof client.authorizationCodeGrant>>;
    try {
      tokens = await client.authorizationCodeGrant(config, current, {
        pkceCodeVerifier: flow.codeVerifier,
        expectedState: flow.state,
        ...(flow.nonce ? { expectedNonce: flow.nonce } : {}),
        idTokenExpected: provider.kind === 'oidc',
      });
    } catch (cause) {
      if (isNonceMismatch(cause))
        throw new OAuthFailure('state', 'the ID token carries another nonce', { cause });
      throw new OAuthFailure('failed', `the code exchange failed: ${describe(cause)}`, { cause });
    }
    try {
      return await identityFrom(provider, config, tokens);
    } catch (cause) {
      throw new OAuthFailure('failed', `the user could not be read: ${describe(cause)}`, { cause });
    }
  }

  private configurationFor(provider: OAuthProvider): Promise<client.Configuration> {
    const version = `${provider.updatedAt.getTime()}:${provider.sealedClientSecret}`;
    const cached = this.#configurations.get(provider.id);
    if (cached?.version === version) return cached.config;
    const config = this.#configure(provider).catch((cause: unknown) => {
      this.#configurations.delete(provider.id);
      throw cause instanceof OAuthFailure
        ? cause
        : new OAuthFailure('failed', `the provider could not be set up: ${describe(cause)}`, { cause });
    });
    this.#configurations.set(provider.id, { version, config });
    return config;
  }

  async #configure(provider: OAuthProvider): Promise<client.Configuration> {
    const secret = this.deps.secretBox.open(provider.sealedClientSecret);
    const customFetch = this.deps.fetch as client.CustomFetch;
    if (provider.kind !== 'oidc') {
      const { metadata } = (this.deps.presets ?? oauthPresets)[provider.kind];
      const config = new client.Configuration({ ...metadata }, provider.clientId, secret);
      config[client.customFetch] = customFetch;
      config.timeout = CALL_TIMEOUT_SECONDS;
      // Plain http only to a host AERIE_OUTBOUND_ALLOW opens (a stand-in on loopback).
      if (this.deps.policy.allowsInsecure(new URL(metadata.issuer))) client.allowInsecureRequests(config);
      return config;
    }
    if (!provider.issuer) throw new OAuthFailure('failed', 'the provider has no issuer');
    const issuer = new URL(provider.issuer);
    const refusal = this.deps.policy.urlRefusal(issuer);
    if (refusal) throw new OAuthFailure('failed', `the issuer's address is refused (${refusal})`);
    return client.discovery(issuer, provider.clientId, secret, undefined, {
      [client.customFetch]: customFetch,
      timeout: CALL_TIMEOUT_SECONDS,
      // Plain http only to a host AERIE_OUTBOUND_ALLOW opens (the tests' provider on loopback).
      ...(this.deps.policy.allowsInsecure(issuer) ? { execute: [client.allowInsecureRequests] } : {}),
    });
  }
}

/** openid-client wraps oauth4webapi's error, whose own `cause` names the claim that did not match. */
function isNonceMismatch(error: unknown): boolean {
  let current = error as { code?: unknown; claim?: unknown; cause?: unknown } | undefined;
  if (current?.code !== 'OAUTH_JWT_CLAIM_COMPARISON_FAILED') return false;
  for (let depth = 0; current && depth < 4; depth++) {
    if (current.claim === 'nonce') return true;
    current = current.cause as typeof current;
  }
  return false;
}

const describe = (error: unknown) => (error instanceof Error ? error.message : String(error));

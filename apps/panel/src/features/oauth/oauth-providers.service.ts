import type { SecretBox } from '@aerie/panel/crypto/secret-box';
import type { Db } from '@aerie/panel/db/database';
import { isUniqueViolation } from '@aerie/panel/db/dialect';
import type { Tx } from '@aerie/panel/db/transaction';
import type { Audit } from '@aerie/panel/features/audit/audit-log';
import type { ListQuery } from '@aerie/panel/http/application/list-query';
import { notFound, validationFailed } from '@aerie/panel/http/errors';
import type { OutboundPolicy } from '@aerie/panel/http/outbound/outbound-policy';
import { fieldRuleFailed } from '@aerie/panel/http/validate';
import {
  OAUTH_SLUG,
  type OAuthProviderCreateBody,
  type OAuthProviderUpdateBody,
  oauthProviderAttributeNames,
} from '@aerie/shared/oauth/oauth-bodies';
import { oauthMessages } from '@aerie/shared/oauth/oauth-messages';
import { toValidationErrors } from '@aerie/shared/validation/validation-errors';
import type { OAuthProvider } from './oauth-provider';
import {
  deleteOAuthProvider,
  findOAuthProvider,
  findOAuthProviderBySlug,
  insertOAuthProvider,
  listEnabledOAuthProviders,
  listOAuthProviders,
  type OAuthProviderValues,
  updateOAuthProvider,
} from './oauth-providers.repository';

/** Identity providers, managed by root admins: the client secret sealed at rest, never handed back. */
export class OAuthProvidersService {
  constructor(
    private readonly deps: {
      db: Db;
      clock: () => Date;
      secretBox: SecretBox;
      policy: OutboundPolicy;
      /** Told of every change, so a cached provider configuration is dropped at once. */
      changed: (providerId: number) => void;
    },
  ) {}

  list(query: ListQuery) {
    return listOAuthProviders(this.deps.db, query);
  }

  find(id: number): Promise<OAuthProvider | null> {
    return findOAuthProvider(this.deps.db, id);
  }

  findBySlug(slug: string): Promise<OAuthProvider | null> {
    return OAUTH_SLUG.test(slug) ? findOAuthProviderBySlug(this.deps.db, slug) : Promise.resolve(null);
  }

  /** The enabled providers, by name: the sign-in page's buttons. */
  listEnabled(): Promise<OAuthProvider[]> {
    return listEnabledOAuthProviders(this.deps.db);
  }

  /** @throws HttpError 422 slug taken, issuer missing (OpenID Connect) or not allowed */
  create(input: OAuthProviderCreateBody, audit: Audit<OAuthProvider>): Promise<OAuthProvider> {
    const values = this.#checked({
      slug: input.slug,
      name: input.name,
      kind: input.kind,
      issuer: input.issuer ?? null,
      clientId: input.client_id,
      sealedClientSecret: this.deps.secretBox.seal(input.client_secret),
      scopes: input.scopes ?? [],
      enabled: input.enabled ?? true,
      createAccounts: input.create_accounts ?? false,
      emailDomains: input.email_domains ?? [],
      allowTwoFactorAccounts: input.allow_two_factor_accounts ?? false,
    });
    return this.#write(async (tx) => {
      const id = await insertOAuthProvider(tx, values, this.deps.clock());
      const provider = (await findOAuthProvider(tx, id)) as OAuthProvider;
      await audit(tx, { subjectId: id, after: provider, secretsSet: ['client_secret'] });
      return provider;
    });
  }

  /**
   * Changes the fields sent; no (or an empty) client secret keeps the stored one.
   * @throws HttpError 404, 422 as create
   */
  async update(
    id: number,
    input: OAuthProviderUpdateBody,
    audit: Audit<OAuthProvider>,
  ): Promise<OAuthProvider> {
    const updated = await this.#write(async (tx) => {
      const before = await findOAuthProvider(tx, id);
      if (!before) throw notFound();
      const kind = input.kind ?? before.kind;
      const values = this.#checked({
        slug: input.slug ?? before.slug,
        name: input.name ?? before.name,
        kind,
        issuer: input.issuer !== undefined ? input.issuer : before.issuer,
        clientId: input.client_id ?? before.clientId,
        sealedClientSecret: input.client_secret
          ? this.deps.secretBox.seal(input.client_secret)
          : before.sealedClientSecret,
        // Scopes and their defaults differ by kind: a kind changed without scopes takes the new kind's.
        scopes: input.scopes ?? (kind === before.kind ? before.scopes : []),
        enabled: input.enabled ?? before.enabled,
        createAccounts: input.create_accounts ?? before.createAccounts,
        emailDomains: input.email_domains ?? before.emailDomains,
        allowTwoFactorAccounts: input.allow_two_factor_accounts ?? before.allowTwoFactorAccounts,
      });
      await updateOAuthProvider(tx, id, values, this.deps.clock());
      const after = (await findOAuthProvider(tx, id)) as OAuthProvider;
      await audit(tx, {
        subjectId: id,
        before,
        after,
        secretsSet: input.client_secret ? ['client_secret'] : [],
      });
      return after;
    });
    this.deps.changed(id);
    return updated;
  }

  /** Deletes the provider and every link to it; accounts stay (an account it created keeps its other ways in). */
  async delete(id: number, audit: Audit<OAuthProvider>): Promise<void> {
    await this.deps.db.transaction().execute(async (tx) => {
      const before = await findOAuthProvider(tx, id);
      if (!before) throw notFound();
      await deleteOAuthProvider(tx, id);
      await audit(tx, { subjectId: id, before });
    });
    this.deps.changed(id);
  }

  /**
   * The cross-field rules: an OpenID Connect provider needs an issuer the panel may reach (https on a public
   * address, or a host AERIE_OUTBOUND_ALLOW opens); the presets have none.
   */
  #checked(values: OAuthProviderValues): OAuthProviderValues {
    if (values.kind !== 'oidc') return { ...values, issuer: null };
    if (!values.issuer) throw fieldRuleFailed('issuer', 'required', oauthProviderAttributeNames);
    if (this.deps.policy.urlRefusal(new URL(values.issuer))) {
      throw validationFailed(
        toValidationErrors([{ path: ['issuer'], message: oauthMessages.issuerNotAllowed }]),
      );
    }
    return values;
  }

  async #write<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    try {
      return await this.deps.db.transaction().execute(work);
    } catch (error) {
      if (isUniqueViolation(error)) throw fieldRuleFailed('slug', 'unique', oauthProviderAttributeNames);
      throw error;
    }
  }
}

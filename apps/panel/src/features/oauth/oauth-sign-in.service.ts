import { randomToken } from '@aerie/panel/crypto/tokens';
import type { Db } from '@aerie/panel/db/database';
import { isUniqueViolation } from '@aerie/panel/db/dialect';
import type { Tx } from '@aerie/panel/db/transaction';
import { type ActivityLog, requestMetadata } from '@aerie/panel/features/activity/activity-log';
import { hashPassword } from '@aerie/panel/features/auth/password-hash';
import type { OAuthFlow } from '@aerie/panel/features/auth/session/session-data';
import type { User } from '@aerie/panel/features/users/user';
import { findUserByEmail, findUserById, usernameTaken } from '@aerie/panel/features/users/user-lookups';
import { insertUser } from '@aerie/panel/features/users/user-writes';
import type { RequestOrigin } from '@aerie/panel/http/request-origin';
import type { ActivityEvent } from '@aerie/shared/activity/activity-events';
import { OAuthFailure } from './oauth-failure';
import type { ProviderIdentity } from './oauth-identity';
import { findLinkBySubject, findLinkOfUser, insertLink } from './oauth-links.repository';
import type { OAuthProvider } from './oauth-provider';
import { usernameCandidates } from './oauth-username';

/** What a provider's answer leads to. */
export type OAuthOutcome =
  | { kind: 'sign-in'; user: User }
  /** The account has 2FA and this provider may not skip it: the TOTP step comes next. */
  | { kind: 'checkpoint'; user: User }
  | { kind: 'linked'; user: User };

/**
 * Decides what a provider's answer does: sign in the account linked to that subject, link it to the signed-in
 * account, or create an account where the provider may. A provider's email never reaches an existing account
 * that was not linked to it while signed in.
 */
export class OAuthSignInService {
  constructor(private readonly deps: { db: Db; clock: () => Date; activity: ActivityLog }) {}

  /**
   * @param signedIn the request's user (a link must come back to the account that started it)
   * @throws OAuthFailure `domain`, `linked_elsewhere`, `email_taken`, `no_account`, `state`
   */
  async resolve(
    provider: OAuthProvider,
    flow: OAuthFlow,
    identity: ProviderIdentity,
    signedIn: User | null,
    origin: RequestOrigin,
  ): Promise<OAuthOutcome> {
    if (!this.#domainAllowed(provider, identity)) {
      throw new OAuthFailure('domain', `${identity.email ?? 'no email'} is not of an allowed domain`);
    }
    const link = await findLinkBySubject(this.deps.db, provider.id, identity.subject);
    if (flow.purpose === 'link')
      return this.#link(provider, flow, identity, signedIn, link?.userId ?? null, origin);
    if (link) {
      const user = await findUserById(this.deps.db, link.userId);
      if (!user) throw new OAuthFailure('no_account', 'the linked account is gone');
      return this.#signIn(provider, user, origin);
    }
    const holder = identity.email ? await findUserByEmail(this.deps.db, identity.email) : null;
    if (holder) {
      await this.#record('auth:oauth-fail', null, holder, provider, origin, { reason: 'email_taken' });
      throw new OAuthFailure('email_taken', `account ${holder.id} has this email but is not linked`);
    }
    if (!provider.createAccounts) throw new OAuthFailure('no_account', 'this provider creates no accounts');
    if (!identity.email || !identity.emailVerified) {
      throw new OAuthFailure('no_account', 'the provider gave no verified email to create an account with');
    }
    const user = await this.#createAccount(provider, identity, origin);
    return this.#signIn(provider, user, origin);
  }

  /** Email domains, when the provider lists some: only a verified email of one of them passes. */
  #domainAllowed(provider: OAuthProvider, identity: ProviderIdentity): boolean {
    if (provider.emailDomains.length === 0) return true;
    const domain = identity.email?.split('@').pop();
    return identity.emailVerified && domain !== undefined && provider.emailDomains.includes(domain);
  }

  async #signIn(provider: OAuthProvider, user: User, origin: RequestOrigin): Promise<OAuthOutcome> {
    if (user.useTotp && !provider.allowTwoFactorAccounts) return { kind: 'checkpoint', user };
    await this.#record('auth:oauth', user, user, provider, origin);
    return { kind: 'sign-in', user };
  }

  async #link(
    provider: OAuthProvider,
    flow: OAuthFlow,
    identity: ProviderIdentity,
    signedIn: User | null,
    linkedTo: number | null,
    origin: RequestOrigin,
  ): Promise<OAuthOutcome> {
    if (!signedIn || signedIn.id !== flow.userId) {
      throw new OAuthFailure('state', 'the link was started by another session or account');
    }
    if (linkedTo === signedIn.id) return { kind: 'linked', user: signedIn };
    if (linkedTo !== null) {
      await this.#record('auth:oauth-fail', signedIn, signedIn, provider, origin, {
        reason: 'linked_elsewhere',
      });
      throw new OAuthFailure('linked_elsewhere', `the subject is linked to account ${linkedTo}`);
    }
    try {
      await this.deps.db.transaction().execute(async (tx) => {
        if (await findLinkOfUser(tx, signedIn.id, provider.id)) {
          throw new OAuthFailure(
            'linked_elsewhere',
            'the account is linked to another account of this provider',
          );
        }
        await insertLink(
          tx,
          { userId: signedIn.id, providerId: provider.id, subject: identity.subject, email: identity.email },
          this.deps.clock(),
        );
        await this.#record('user:oauth.link', signedIn, signedIn, provider, origin, {}, tx);
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw new OAuthFailure('linked_elsewhere', 'linked meanwhile');
      throw error;
    }
    return { kind: 'linked', user: signedIn };
  }

  /**
   * A new account for a provider's user, linked to it, with no password anyone knows (`has_password` false: a
   * password reset gives it one). Username from the provider's hints, made unique.
   */
  async #createAccount(
    provider: OAuthProvider,
    identity: ProviderIdentity,
    origin: RequestOrigin,
  ): Promise<User> {
    const email = identity.email as string;
    // A hash of nothing anyone holds: the password sign-in can never match it.
    const passwordHash = await hashPassword(randomToken(32));
    for (const username of usernameCandidates(identity.usernameHints)) {
      if (await usernameTaken(this.deps.db, username)) continue;
      try {
        return await this.deps.db.transaction().execute(async (tx) => {
          const now = this.deps.clock();
          const user = await insertUser(
            tx,
            {
              username,
              email,
              passwordHash,
              rootAdmin: false,
              nameFirst: identity.nameFirst,
              nameLast: identity.nameLast,
              hasPassword: false,
            },
            now,
          );
          await insertLink(
            tx,
            { userId: user.id, providerId: provider.id, subject: identity.subject, email },
            now,
          );
          await this.#record('user:oauth.create-account', user, user, provider, origin, {}, tx);
          return user;
        });
      } catch (error) {
        if (!isUniqueViolation(error)) throw error;
        // The email (or the subject) was taken meanwhile: the email's owner is not this provider's to sign in.
        if (await findUserByEmail(this.deps.db, email)) {
          throw new OAuthFailure('email_taken', 'an account with this email was created meanwhile');
        }
        if (await findLinkBySubject(this.deps.db, provider.id, identity.subject)) {
          throw new OAuthFailure('failed', 'the subject was linked meanwhile');
        }
      }
    }
    throw new OAuthFailure('failed', 'no free username could be found');
  }

  async #record(
    event: Extract<ActivityEvent, `auth:oauth${string}` | `user:oauth${string}`>,
    actor: User | null,
    user: User,
    provider: OAuthProvider,
    origin: RequestOrigin,
    properties: Record<string, unknown> = {},
    db: Db | Tx = this.deps.db,
  ): Promise<void> {
    await this.deps.activity.record(db, {
      event,
      actor,
      subjects: { user },
      ip: origin.ip,
      isApi: false,
      properties: { provider: provider.name, ...requestMetadata(origin), ...properties },
    });
  }
}

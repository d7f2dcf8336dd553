import type { Db } from '@aerie/panel/db/database';
import { toWireDate } from '@aerie/panel/db/dialect';
import { type ActivityLog, requestMetadata } from '@aerie/panel/features/activity/activity-log';
import type { User } from '@aerie/panel/features/users/user';
import { findUserById } from '@aerie/panel/features/users/user-lookups';
import { lockUserRow } from '@aerie/panel/features/users/user-writes';
import { displayError, notFound } from '@aerie/panel/http/errors';
import type { RequestOrigin } from '@aerie/panel/http/request-origin';
import { oauthMessages } from '@aerie/shared/oauth/oauth-messages';
import type { AccountOAuthLink } from '@aerie/shared/oauth/oauth-wire';
import { countUsableLinks, deleteLink, findLinkOfUser, listLinksOfUser } from './oauth-links.repository';
import { findOAuthProviderBySlug, listEnabledOAuthProviders } from './oauth-providers.repository';

/** The account page's side of single sign-on: which providers an account is linked to, and unlinking one. */
export class OAuthLinksService {
  constructor(private readonly deps: { db: Db; activity: ActivityLog }) {}

  /** Every enabled provider, with the account's link to it if any. */
  async list(user: User): Promise<AccountOAuthLink[]> {
    const [providers, links] = await Promise.all([
      listEnabledOAuthProviders(this.deps.db),
      listLinksOfUser(this.deps.db, user.id),
    ]);
    return providers.map((provider) => {
      const link = links.find((candidate) => candidate.providerId === provider.id);
      return {
        slug: provider.slug,
        name: provider.name,
        kind: provider.kind,
        linked: link !== undefined,
        linked_at: link ? toWireDate(link.createdAt) : null,
        email: link?.email ?? null,
      };
    });
  }

  /**
   * Removes the link, unless it is the account's last way in: no password of its own and no other link through
   * an enabled provider. The check and the removal hold the account's row, so two unlinks at once cannot both
   * pass.
   * @throws HttpError 404 unknown provider, 400 DisplayException not linked or last way in
   */
  async unlink(user: User, slug: string, origin: RequestOrigin): Promise<void> {
    const provider = await findOAuthProviderBySlug(this.deps.db, slug);
    if (!provider) throw notFound();
    await this.deps.db.transaction().execute(async (tx) => {
      await lockUserRow(tx, user.id);
      const link = await findLinkOfUser(tx, user.id, provider.id);
      if (!link) throw displayError(oauthMessages.notLinked);
      const current = (await findUserById(tx, user.id)) ?? user;
      const others = (await countUsableLinks(tx, user.id)) - (provider.enabled ? 1 : 0);
      if (!current.hasPassword && others <= 0) throw displayError(oauthMessages.lastWayIn);
      await deleteLink(tx, user.id, provider.id);
      await this.deps.activity.record(tx, {
        event: 'user:oauth.unlink',
        actor: user,
        subjects: { user },
        ip: origin.ip,
        isApi: origin.isApi,
        properties: { provider: provider.name, ...requestMetadata(origin) },
      });
    });
  }
}

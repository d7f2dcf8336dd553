import type { Db } from '@aerie/panel/db/database';
import { readCount, readDate } from '@aerie/panel/db/dialect';
import type { UserOAuthLinksTable } from '@aerie/panel/db/schema-oauth';
import type { Tx } from '@aerie/panel/db/transaction';
import type { Selectable } from 'kysely';
import type { OAuthLink } from './oauth-provider';

const toLink = (row: Selectable<UserOAuthLinksTable>): OAuthLink => ({
  userId: row.user_id,
  providerId: row.provider_id,
  subject: row.subject,
  email: row.email,
  createdAt: readDate(row.created_at),
});

/** The account a provider's subject is linked to. */
export async function findLinkBySubject(
  db: Db | Tx,
  providerId: number,
  subject: string,
): Promise<OAuthLink | null> {
  const row = await db
    .selectFrom('user_oauth_links')
    .selectAll()
    .where('provider_id', '=', providerId)
    .where('subject', '=', subject)
    .executeTakeFirst();
  return row ? toLink(row) : null;
}

export async function findLinkOfUser(
  db: Db | Tx,
  userId: number,
  providerId: number,
): Promise<OAuthLink | null> {
  const row = await db
    .selectFrom('user_oauth_links')
    .selectAll()
    .where('user_id', '=', userId)
    .where('provider_id', '=', providerId)
    .executeTakeFirst();
  return row ? toLink(row) : null;
}

export async function listLinksOfUser(db: Db, userId: number): Promise<OAuthLink[]> {
  const rows = await db.selectFrom('user_oauth_links').selectAll().where('user_id', '=', userId).execute();
  return rows.map(toLink);
}

/** Links through providers that are enabled: the ways in an account has besides its password. */
export async function countUsableLinks(db: Db | Tx, userId: number): Promise<number> {
  const row = await db
    .selectFrom('user_oauth_links')
    .innerJoin('oauth_providers', 'oauth_providers.id', 'user_oauth_links.provider_id')
    .select((eb) => eb.fn.countAll().as('count'))
    .where('user_oauth_links.user_id', '=', userId)
    .where('oauth_providers.enabled', '=', true)
    .executeTakeFirst();
  return readCount(row?.count);
}

/** @throws the driver's unique violation when the subject or the account is already linked for this provider */
export async function insertLink(
  db: Db | Tx,
  link: { userId: number; providerId: number; subject: string; email: string | null },
  now: Date,
): Promise<void> {
  await db
    .insertInto('user_oauth_links')
    .values({
      user_id: link.userId,
      provider_id: link.providerId,
      subject: link.subject,
      email: link.email,
      created_at: now,
    })
    .execute();
}

/** @returns whether a link was removed */
export async function deleteLink(db: Db | Tx, userId: number, providerId: number): Promise<boolean> {
  const result = await db
    .deleteFrom('user_oauth_links')
    .where('user_id', '=', userId)
    .where('provider_id', '=', providerId)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

import type { Db } from '@aerie/panel/db/database';
import { dialectOf, readBool, readDate } from '@aerie/panel/db/dialect';
import { insertReturningId } from '@aerie/panel/db/insert-id';
import type { OAuthProvidersTable } from '@aerie/panel/db/schema-oauth';
import type { Tx } from '@aerie/panel/db/transaction';
import { type ListQuery, runList } from '@aerie/panel/http/application/list-query';
import { type OAuthProviderKind, oauthProviderKinds } from '@aerie/shared/oauth/oauth-wire';
import type { Selectable } from 'kysely';
import type { OAuthProvider } from './oauth-provider';

export const oauthProviderListSpec = {
  filters: { slug: { column: 'oauth_providers.slug' }, name: { column: 'oauth_providers.name' } },
  sorts: { id: 'oauth_providers.id', slug: 'oauth_providers.slug', name: 'oauth_providers.name' },
} as const;

function readList(text: string): string[] {
  try {
    const list: unknown = JSON.parse(text);
    return Array.isArray(list) ? list.filter((item): item is string => typeof item === 'string') : [];
  } catch {
    return [];
  }
}

function toProvider(row: Selectable<OAuthProvidersTable>): OAuthProvider {
  return {
    id: row.id,
    slug: row.slug,
    name: row.name,
    kind: (oauthProviderKinds as readonly string[]).includes(row.kind)
      ? (row.kind as OAuthProviderKind)
      : 'oidc',
    issuer: row.issuer,
    clientId: row.client_id,
    sealedClientSecret: row.client_secret,
    scopes: readList(row.scopes),
    enabled: readBool(row.enabled),
    createAccounts: readBool(row.create_accounts),
    emailDomains: readList(row.email_domains),
    allowTwoFactorAccounts: readBool(row.allow_two_factor_accounts),
    createdAt: readDate(row.created_at),
    updatedAt: readDate(row.updated_at),
  };
}

export async function listOAuthProviders(db: Db, list: ListQuery) {
  const { rows, total } = await runList(
    dialectOf(db),
    db.selectFrom('oauth_providers').selectAll(),
    list,
    'oauth_providers.id',
  );
  return { rows: rows.map(toProvider), total };
}

/** The enabled providers, by name: the sign-in page's buttons and the account page's list. */
export async function listEnabledOAuthProviders(db: Db): Promise<OAuthProvider[]> {
  const rows = await db
    .selectFrom('oauth_providers')
    .selectAll()
    .where('enabled', '=', true)
    .orderBy('name')
    .orderBy('id')
    .execute();
  return rows.map(toProvider);
}

export async function anyEnabledOAuthProvider(db: Db): Promise<boolean> {
  const row = await db
    .selectFrom('oauth_providers')
    .select('id')
    .where('enabled', '=', true)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

export async function findOAuthProvider(db: Db | Tx, id: number): Promise<OAuthProvider | null> {
  const row = await db.selectFrom('oauth_providers').selectAll().where('id', '=', id).executeTakeFirst();
  return row ? toProvider(row) : null;
}

export async function findOAuthProviderBySlug(db: Db, slug: string): Promise<OAuthProvider | null> {
  const row = await db.selectFrom('oauth_providers').selectAll().where('slug', '=', slug).executeTakeFirst();
  return row ? toProvider(row) : null;
}

/** A provider's stored values, the client secret already sealed. */
export type OAuthProviderValues = Omit<OAuthProvider, 'id' | 'createdAt' | 'updatedAt'>;

const columnsOf = (values: OAuthProviderValues) => ({
  slug: values.slug,
  name: values.name,
  kind: values.kind,
  issuer: values.issuer,
  client_id: values.clientId,
  client_secret: values.sealedClientSecret,
  scopes: JSON.stringify(values.scopes),
  enabled: values.enabled,
  create_accounts: values.createAccounts,
  email_domains: JSON.stringify(values.emailDomains),
  allow_two_factor_accounts: values.allowTwoFactorAccounts,
});

export function insertOAuthProvider(db: Tx, values: OAuthProviderValues, now: Date): Promise<number> {
  return insertReturningId(
    db,
    db.insertInto('oauth_providers').values({ ...columnsOf(values), created_at: now, updated_at: now }),
  );
}

export async function updateOAuthProvider(
  db: Tx,
  id: number,
  values: OAuthProviderValues,
  now: Date,
): Promise<void> {
  await db
    .updateTable('oauth_providers')
    .set({ ...columnsOf(values), updated_at: now })
    .where('id', '=', id)
    .execute();
}

/** Its links go with it (foreign key, on delete cascade). */
export async function deleteOAuthProvider(db: Tx, id: number): Promise<void> {
  await db.deleteFrom('oauth_providers').where('id', '=', id).execute();
}

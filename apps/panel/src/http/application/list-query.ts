import { type DialectName, readCount } from '@aerie/panel/db/dialect';
import { containsPattern, likeAnyCase } from '@aerie/panel/db/like';
import { HttpError } from '@aerie/panel/http/errors';
import { applicationApiMessages } from '@aerie/shared/application-api/application-api-messages';
import type { SelectQueryBuilder } from 'kysely';
import { sql } from 'kysely';

/**
 * The query string of an Application API list (reference §2.4–2.5): `page`, `per_page` (default 50),
 * `filter[<name>]=a,b` (each part a case-insensitive substring, OR-ed) and `sort=<field>` / `sort=-<field>`.
 * Upstream does not cap `per_page`; here it stops at 1,000 so one request cannot make the panel build a list
 * of every row.
 */
export const applicationPageSize = { default: 50, max: 1000 } as const;

export type RawQuery = Record<string, string | string[] | undefined>;

export interface ListSpec<F extends string, S extends string> {
  /** Filter name → column; `exact` filters compare equality instead of a substring. */
  filters: Record<F, { column: string; exact?: boolean }>;
  /** Sort name → column. */
  sorts: Record<S, string>;
}

export interface ListQuery {
  page: number;
  perPage: number;
  filters: { column: string; exact: boolean; values: string[] }[];
  sort: { column: string; direction: 'asc' | 'desc' } | null;
}

const last = (value: string | string[] | undefined) => (Array.isArray(value) ? value.at(-1) : value);

function positive(value: string | undefined, fallback: number): number {
  if (value === undefined || !/^\d{1,9}$/.test(value.trim())) return fallback;
  const number = Number(value);
  return number >= 1 ? number : fallback;
}

/** `page` and `per_page` alone (lists without filters). */
export function parsePage(query: RawQuery) {
  return {
    page: positive(last(query.page), 1),
    perPage: Math.min(positive(last(query.per_page), applicationPageSize.default), applicationPageSize.max),
  };
}

/**
 * @throws HttpError 400 InvalidFilterQuery / InvalidSortQuery naming what is not allowed
 */
export function parseListQuery<F extends string, S extends string>(
  query: RawQuery,
  spec: ListSpec<F, S>,
): ListQuery {
  const filters: ListQuery['filters'] = [];
  const refused: string[] = [];
  for (const [key, raw] of Object.entries(query)) {
    const name = /^filter\[(.*)\]$/.exec(key)?.[1];
    if (name === undefined) continue;
    const filter = Object.hasOwn(spec.filters, name) ? spec.filters[name as F] : undefined;
    if (!filter) {
      refused.push(name);
      continue;
    }
    const values = (Array.isArray(raw) ? raw.join(',') : (raw ?? ''))
      .split(',')
      .map((part) => part.trim())
      .filter(Boolean);
    if (values.length > 0) filters.push({ column: filter.column, exact: filter.exact ?? false, values });
  }
  if (refused.length > 0) {
    throw new HttpError(
      400,
      'InvalidFilterQuery',
      applicationApiMessages.invalidFilter(refused, Object.keys(spec.filters)),
    );
  }
  let sort: ListQuery['sort'] = null;
  const sortText = last(query.sort)?.trim();
  if (sortText) {
    const name = sortText.replace(/^-/, '');
    const column = Object.hasOwn(spec.sorts, name) ? spec.sorts[name as S] : undefined;
    if (!column) {
      throw new HttpError(
        400,
        'InvalidSortQuery',
        applicationApiMessages.invalidSort([name], Object.keys(spec.sorts)),
      );
    }
    sort = { column, direction: sortText.startsWith('-') ? 'desc' : 'asc' };
  }
  return { ...parsePage(query), filters, sort };
}

/**
 * Runs a list: the filters and sort applied to `base`, the total counted, one page read (ordered by `idColumn`
 * after the requested sort, so pages never overlap).
 */
// biome-ignore lint/suspicious/noExplicitAny: works over any table's select builder.
export async function runList<Q extends SelectQueryBuilder<any, any, any>>(
  dialect: DialectName,
  base: Q,
  list: ListQuery,
  idColumn: string,
): Promise<{ rows: Awaited<ReturnType<Q['execute']>>; total: number }> {
  let filtered = base;
  for (const filter of list.filters) {
    filtered = filtered.where((eb) =>
      eb.or(
        filter.values.map((value) =>
          filter.exact
            ? eb(sql.ref(filter.column), '=', value)
            : likeAnyCase(dialect, filter.column, containsPattern(value)),
        ),
      ),
    ) as Q;
  }
  const counted = await filtered
    .clearSelect()
    .select((eb) => eb.fn.countAll().as('count'))
    .executeTakeFirst();
  let ordered = filtered;
  if (list.sort) ordered = ordered.orderBy(sql.ref(list.sort.column), list.sort.direction) as Q;
  const rows = await ordered
    .orderBy(sql.ref(idColumn))
    .limit(list.perPage)
    .offset((list.page - 1) * list.perPage)
    .execute();
  return {
    rows: rows as Awaited<ReturnType<Q['execute']>>,
    total: readCount((counted as { count?: number | string } | undefined)?.count),
  };
}

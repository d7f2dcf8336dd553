import { HttpError } from '@aerie/panel/http/errors';
import { activityLimits, activityMessages } from '@aerie/shared/activity/activity-wire';
import { serverMessages } from '@aerie/shared/servers/server-messages';

/** What `GET …/activity` may be asked (reference §7.1): anything else is a 400 naming it. */
const allowedFilters = ['event'] as const;
const allowedSorts = ['timestamp'] as const;

export interface ActivityListQuery {
  page: number;
  perPage: number;
  /** `filter[event]`: parts matched case-insensitively anywhere in the event name, any of them. */
  events: string[];
  newestFirst: boolean;
  /** `include=actor` (or `include[]=actor`). */
  includeActor: boolean;
}

type RawQuery = Record<string, string | string[] | undefined>;

const values = (raw: string | string[] | undefined) =>
  Array.isArray(raw) ? raw : raw === undefined ? [] : [raw];

const parts = (raw: string | string[] | undefined) =>
  values(raw)
    .flatMap((value) => value.split(','))
    .map((part) => part.trim())
    .filter(Boolean);

/** A whole number ≥ 1, or the fallback (Laravel reads anything else as its default). */
function positive(raw: string | string[] | undefined, fallback: number): number {
  const value = values(raw).at(-1)?.trim();
  if (value === undefined || !/^\d{1,9}$/.test(value)) return fallback;
  const number = Number(value);
  return number >= 1 ? number : fallback;
}

/**
 * Reads `page`, `per_page` (25 by default, at most 100), `filter[event]`, `sort` and `include`.
 * @throws HttpError 400 InvalidFilterQuery / InvalidSortQuery naming what is not allowed
 */
export function parseActivityListQuery(query: RawQuery): ActivityListQuery {
  const refusedFilters: string[] = [];
  let events: string[] = [];
  for (const [key, raw] of Object.entries(query)) {
    const name = /^filter\[(.*?)\]/.exec(key)?.[1];
    if (name === undefined) continue;
    if ((allowedFilters as readonly string[]).includes(name)) events = parts(raw);
    else refusedFilters.push(name);
  }
  if (refusedFilters.length > 0) {
    throw new HttpError(
      400,
      'InvalidFilterQuery',
      serverMessages.invalidFilter(refusedFilters, allowedFilters),
    );
  }
  const sorts = parts(query.sort);
  const refusedSorts = sorts
    .map((sort) => sort.replace(/^-/, ''))
    .filter((sort) => !(allowedSorts as readonly string[]).includes(sort));
  if (refusedSorts.length > 0) {
    throw new HttpError(400, 'InvalidSortQuery', activityMessages.invalidSort(refusedSorts, allowedSorts));
  }
  const includes = Object.entries(query)
    .filter(([key]) => key === 'include' || /^include\[\d*\]$/.test(key))
    .flatMap(([, raw]) => parts(raw));
  return {
    page: positive(query.page, 1),
    perPage: Math.min(positive(query.per_page, activityLimits.perPageDefault), activityLimits.perPageMax),
    events,
    // Newest first unless asked for `sort=timestamp`.
    newestFirst: sorts[0] !== 'timestamp',
    includeActor: includes.includes('actor'),
  };
}

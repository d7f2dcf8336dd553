import { HttpError } from '@aerie/panel/http/errors';
import { serverMessages } from '@aerie/shared/servers/server-messages';
import type { ServerInclude } from './server.presenter';

export const serverListPageSize = { default: 50, max: 100 } as const;

/** Filters of `GET /api/client`, in the order the 400 message lists them. */
export const allowedServerFilters = ['uuid', 'name', 'description', 'external_id', '*'] as const;
export type PartialFilter = Exclude<(typeof allowedServerFilters)[number], '*'>;

export type ServerListType = 'default' | 'owner' | 'admin' | 'admin-all';

export interface ServerListQuery {
  page: number;
  perPage: number;
  type: ServerListType;
  /** `filter[uuid|name|description|external_id]`: each a list of parts matched with OR. */
  partial: Partial<Record<PartialFilter, string[]>>;
  /** `filter[*]`: the multi-field search. */
  search: string | null;
  includes: Set<ServerInclude>;
}

type RawQuery = Record<string, string | string[] | undefined>;

const last = (value: string | string[] | undefined) => (Array.isArray(value) ? value.at(-1) : value);

/** A whole number ≥ 1, or the fallback (Laravel reads anything else as its default). */
function positive(value: string | undefined, fallback: number): number {
  if (value === undefined || !/^\d+$/.test(value.trim())) return fallback;
  const number = Number(value);
  return number >= 1 ? number : fallback;
}

/** `include=egg,subusers` or `include[]=egg&include[]=subusers`; unknown names are ignored. */
export function parseIncludes(query: RawQuery): Set<ServerInclude> {
  const names = Object.entries(query)
    .filter(([key]) => key === 'include' || /^include\[\d*\]$/.test(key))
    .flatMap(([, value]) => (Array.isArray(value) ? value : [value ?? '']))
    .flatMap((value) => value.split(','))
    .map((name) => name.trim());
  return new Set(names.filter((name): name is ServerInclude => name === 'egg' || name === 'subusers'));
}

/**
 * Reads the list's query string (`page`, `per_page` capped at 100, `type`, `filter[...]`, `include`).
 * @throws HttpError 400 InvalidFilterQuery naming a filter that is not allowed
 */
export function parseServerListQuery(query: RawQuery): ServerListQuery {
  const partial: ServerListQuery['partial'] = {};
  let search: string | null = null;
  const refused: string[] = [];
  for (const [key, raw] of Object.entries(query)) {
    const name = /^filter\[(.*)\]$/.exec(key)?.[1];
    if (name === undefined) continue;
    if (!(allowedServerFilters as readonly string[]).includes(name)) {
      refused.push(name);
      continue;
    }
    const value = (Array.isArray(raw) ? raw.join(',') : (raw ?? '')).trim();
    if (value === '') continue;
    if (name === '*') search = value;
    else {
      const parts = value
        .split(',')
        .map((part) => part.trim())
        .filter(Boolean);
      if (parts.length > 0) partial[name as PartialFilter] = parts;
    }
  }
  if (refused.length > 0) {
    throw new HttpError(
      400,
      'InvalidFilterQuery',
      serverMessages.invalidFilter(refused, allowedServerFilters),
    );
  }
  const type = last(query.type);
  return {
    page: positive(last(query.page), 1),
    perPage: Math.min(positive(last(query.per_page), serverListPageSize.default), serverListPageSize.max),
    type: type === 'owner' || type === 'admin' || type === 'admin-all' ? type : 'default',
    partial,
    search,
    includes: parseIncludes(query),
  };
}

import type { Pagination as PaginationWire } from '@aerie/shared/servers/server-wire';

/**
 * The Application API's envelopes (`/api/application`, Pterodactyl's admin API) as the admin area reads them. Each
 * admin feature maps its resource's snake_case attributes to its own camelCase model in its `api/` module.
 */
export interface ApplicationItem<A> {
  object: string;
  attributes: A;
}

export interface ApplicationList<A> {
  object: 'list';
  data: ApplicationItem<A>[];
  meta?: { pagination: PaginationWire };
}

export interface Page<T> {
  items: T[];
  total: number;
  currentPage: number;
  totalPages: number;
}

/** One page of a list, mapped item by item. */
export function toPage<A, T>(list: ApplicationList<A>, map: (attributes: A) => T): Page<T> {
  const pagination = list.meta?.pagination;
  return {
    items: list.data.map((item) => map(item.attributes)),
    total: pagination?.total ?? list.data.length,
    currentPage: pagination?.current_page ?? 1,
    totalPages: pagination?.total_pages ?? 1,
  };
}

/** `filter[<field>]` and the page, as list routes take them (undefined and empty values left out). */
export function listQuery(options: {
  page?: number;
  perPage?: number;
  filters?: Record<string, string | undefined>;
}) {
  const query: Record<string, string | number> = {};
  if (options.page) query.page = options.page;
  if (options.perPage) query.per_page = options.perPage;
  for (const [field, value] of Object.entries(options.filters ?? {})) {
    if (value?.trim()) query[`filter[${field}]`] = value.trim();
  }
  return query;
}

import type { Pagination as PaginationWire } from '@aerie/shared/servers/server-wire';
import { apiClient } from '@/lib/api-client';

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

type Query = Record<string, string | number>;

/**
 * The five calls of an Application API resource at `base` (list, get, create, update, delete), each answer mapped
 * by `toModel`; `include` (e.g. `servers`) is asked for on every call that answers with the resource.
 */
export function applicationResource<A, T, B = unknown>(
  base: string,
  toModel: (attributes: A) => T,
  include?: string,
) {
  const withInclude = (query: Query = {}): Query => (include ? { ...query, include } : query);
  return {
    /** GET base: one page (`listQuery` builds the query). */
    async list(query: Query, signal?: AbortSignal): Promise<Page<T>> {
      const list = await apiClient.get<ApplicationList<A>>(base, { signal, params: withInclude(query) });
      return toPage(list, toModel);
    },
    async get(id: number, signal?: AbortSignal): Promise<T> {
      const item = await apiClient.get<ApplicationItem<A>>(`${base}/${id}`, {
        signal,
        params: withInclude(),
      });
      return toModel(item.attributes);
    },
    async create(body: B): Promise<T> {
      const item = await apiClient.post<ApplicationItem<A>>(base, body, { params: withInclude() });
      return toModel(item.attributes);
    },
    async update(id: number, body: B): Promise<T> {
      const item = await apiClient.patch<ApplicationItem<A>>(`${base}/${id}`, body, {
        params: withInclude(),
      });
      return toModel(item.attributes);
    },
    async remove(id: number): Promise<void> {
      await apiClient.delete(`${base}/${id}`);
    },
  };
}

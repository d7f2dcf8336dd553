import type { Db } from '@aerie/panel/db/database';
import { presentPagination } from '@aerie/panel/http/pagination';
import type { AdminResource } from '@aerie/shared/api-keys/application-keys-wire';
import type { FastifyRequest } from 'fastify';

/**
 * Fractal's transformers as the Application API answers with them (reference §2.1–2.3): an item is
 * `{object, attributes}`, includes go inside `attributes.relationships.<name>`, and an include the caller may
 * not read is `{object: "null_resource", attributes: null}` without changing the status. Relations load in one
 * query per include per level, whatever the number of items (no N+1).
 */
export interface Transformer<T> {
  object: string;
  attributes(item: T): Record<string, unknown>;
  includes?: Record<string, Relation<T>>;
}

export interface Relation<T> {
  /** Read access to this resource is needed to see the include; null = anyone who sees the parent. */
  gate: AdminResource | null;
  /**
   * How the related items render: a transformer of the relation's own (variables, a config block), or the `object` of
   * one in the include registry, so transformers never import each other and no import cycle can form.
   */
  // biome-ignore lint/suspicious/noExplicitAny: a relation's items are whatever its own transformer reads.
  renders: Transformer<any> | string;
  /** The related item(s) of each parent: an array for to-many relations, an item or null for to-one. */
  load(db: Db, parents: T[]): Promise<Map<T, unknown>>;
}

/** Include names as a tree: `allocations.node,user` → {allocations: {node: {}}, user: {}}. */
export type IncludeTree = Map<string, IncludeTree>;

const MAX_INCLUDE_DEPTH = 2;
const MAX_INCLUDES = 20;

/**
 * `include=a,b.c` or `include[]=a&include[]=b`, from the query string or the JSON body (WHMCS sends it on a
 * POST). Names are trimmed, empties dropped, at most two levels deep; unknown names are ignored later.
 */
export function parseIncludes(request: FastifyRequest): IncludeTree {
  const query = request.query as Record<string, unknown>;
  const body = (typeof request.body === 'object' && request.body !== null ? request.body : {}) as Record<
    string,
    unknown
  >;
  const raw: unknown[] = [];
  for (const source of [query, body]) {
    for (const [key, value] of Object.entries(source)) {
      if (key === 'include' || /^include\[\d*\]$/.test(key))
        raw.push(...(Array.isArray(value) ? value : [value]));
    }
  }
  const tree: IncludeTree = new Map();
  const names = raw
    .filter((value): value is string => typeof value === 'string')
    .flatMap((value) => value.split(','))
    .map((name) => name.trim())
    .filter(Boolean)
    .slice(0, MAX_INCLUDES);
  for (const name of names) {
    let level = tree;
    for (const part of name.split('.').slice(0, MAX_INCLUDE_DEPTH)) {
      const next = level.get(part) ?? new Map();
      level.set(part, next);
      level = next;
    }
  }
  return tree;
}

/**
 * Every transformer of the Application API by its `object`, and the includes wired across features (a user's
 * servers, a server's node...), which the transformers' own modules cannot name without importing each other.
 * Built once by the composition root (`application-includes.ts`).
 */
export interface IncludeRegistry {
  // biome-ignore lint/suspicious/noExplicitAny: the registry holds transformers of every item type.
  transformer(object: string): Transformer<any>;
  /** A registered transformer's own includes and those wired to it; any other transformer's own. */
  // biome-ignore lint/suspicious/noExplicitAny: as above.
  relationsOf(transformer: Transformer<any>): Readonly<Record<string, Relation<any>>>;
}

/** Builds the registry from the transformers and, per `object`, the includes wired from outside their feature. */
export function createIncludeRegistry(
  // biome-ignore lint/suspicious/noExplicitAny: as above.
  transformers: readonly Transformer<any>[],
  // biome-ignore lint/suspicious/noExplicitAny: as above.
  wired: Readonly<Record<string, Readonly<Record<string, Relation<any>>>>>,
): IncludeRegistry {
  const byObject = new Map(transformers.map((transformer) => [transformer.object, transformer]));
  // biome-ignore lint/suspicious/noExplicitAny: as above.
  const includes = new Map<string, Record<string, Relation<any>>>();
  for (const transformer of transformers) {
    const own = transformer.includes ?? {};
    const added = wired[transformer.object] ?? {};
    const clash = Object.keys(added).find((name) => Object.hasOwn(own, name));
    if (clash) throw new Error(`The include "${clash}" of ${transformer.object} is defined twice.`);
    includes.set(transformer.object, { ...own, ...added });
  }
  for (const object of Object.keys(wired)) {
    if (!byObject.has(object)) throw new Error(`Includes were wired to an unknown object "${object}".`);
  }
  return {
    transformer(object) {
      const found = byObject.get(object);
      if (!found) throw new Error(`No transformer renders "${object}".`);
      return found;
    },
    relationsOf: (transformer) =>
      (byObject.get(transformer.object) === transformer ? includes.get(transformer.object) : undefined) ??
      transformer.includes ??
      {},
  };
}

export interface RenderContext {
  db: Db;
  canRead(resource: AdminResource): boolean;
  includes: IncludeRegistry;
}

type Rendered = { object: string; attributes: Record<string, unknown> | null };

const NULL_RESOURCE: Rendered = { object: 'null_resource', attributes: null };

/** Renders items with their includes. */
export async function renderItems<T>(
  context: RenderContext,
  transformer: Transformer<T>,
  items: T[],
  includes: IncludeTree,
): Promise<Rendered[]> {
  const rendered = items.map((item) => ({
    object: transformer.object,
    attributes: transformer.attributes(item),
  }));
  const relations = context.includes.relationsOf(transformer);
  const wanted = [...includes].filter(([name]) => Object.hasOwn(relations, name));
  if (wanted.length === 0 || items.length === 0) return rendered;
  for (const entry of rendered) entry.attributes.relationships = {};
  for (const [name, subtree] of wanted) {
    const relation = relations[name] as Relation<T> | undefined;
    if (!relation) continue;
    if (relation.gate && !context.canRead(relation.gate)) {
      for (const entry of rendered)
        (entry.attributes.relationships as Record<string, unknown>)[name] = NULL_RESOURCE;
      continue;
    }
    const loaded = await relation.load(context.db, items);
    const child =
      typeof relation.renders === 'string'
        ? context.includes.transformer(relation.renders)
        : relation.renders;
    // All children of all parents render together, so their own includes load in one go too.
    const children = [
      ...new Set(
        [...loaded.values()].flatMap((value) => (Array.isArray(value) ? value : value ? [value] : [])),
      ),
    ];
    const renderedChildren = await renderItems(context, child, children, subtree);
    const byChild = new Map(children.map((value, index) => [value, renderedChildren[index]]));
    items.forEach((item, index) => {
      const value = loaded.get(item);
      const relationships = rendered[index]?.attributes.relationships as Record<string, unknown>;
      relationships[name] = Array.isArray(value)
        ? { object: 'list', data: value.map((entry) => byChild.get(entry)) }
        : value
          ? byChild.get(value)
          : NULL_RESOURCE;
    });
  }
  return rendered;
}

/** One item: `{object, attributes}`. */
export async function renderItem<T>(
  context: RenderContext,
  transformer: Transformer<T>,
  item: T,
  includes: IncludeTree,
) {
  const [rendered] = await renderItems(context, transformer, [item], includes);
  return rendered as Rendered;
}

/** A paginated list: `{object: "list", data, meta: {pagination}}`. */
export async function renderPage<T>(
  request: FastifyRequest,
  context: RenderContext,
  transformer: Transformer<T>,
  page: { rows: T[]; total: number; page: number; perPage: number },
  includes: IncludeTree,
) {
  return {
    object: 'list' as const,
    data: await renderItems(context, transformer, page.rows, includes),
    meta: presentPagination(request, {
      total: page.total,
      count: page.rows.length,
      perPage: page.perPage,
      currentPage: page.page,
    }),
  };
}

/** A list without pagination: `{object: "list", data}`. */
export async function renderList<T>(
  context: RenderContext,
  transformer: Transformer<T>,
  items: T[],
  includes: IncludeTree,
) {
  return { object: 'list' as const, data: await renderItems(context, transformer, items, includes) };
}

/** Groups rows by a key, for a to-many relation's loader. */
export function groupBy<T, K>(rows: T[], key: (row: T) => K): Map<K, T[]> {
  const groups = new Map<K, T[]>();
  for (const row of rows) {
    const group = groups.get(key(row));
    if (group) group.push(row);
    else groups.set(key(row), [row]);
  }
  return groups;
}

/** `meta.resource` of a created item: the absolute URL of `/api/application/<path>` on the request's host. */
export const resourceUrl = (request: FastifyRequest, path: string) =>
  `${request.protocol}://${request.host}/api/application/${path}`;

/** A to-one relation found by id, one query for all parents: `find` reads the items with these ids. */
export function toOne<T, R extends { id: number }>(
  gate: AdminResource | null,
  renders: Relation<T>['renders'],
  find: (db: Db, ids: number[]) => Promise<R[]>,
  idOf: (parent: T) => number | null,
): Relation<T> {
  return {
    gate,
    renders,
    async load(db, parents) {
      const ids = [...new Set(parents.map(idOf).filter((id): id is number => id !== null))];
      const found = new Map((ids.length === 0 ? [] : await find(db, ids)).map((row) => [row.id, row]));
      return new Map(parents.map((parent) => [parent, found.get(idOf(parent) ?? 0) ?? null]));
    },
  };
}

/** A to-many relation, one query for all parents: `find` reads the items of these parent ids, `keyOf` names each one's. */
export function toMany<T, R, K extends number | string>(
  gate: AdminResource | null,
  renders: Relation<T>['renders'],
  find: (db: Db, ids: K[]) => Promise<R[]>,
  keyOf: (item: R) => K | null,
  idOf: (parent: T) => K,
): Relation<T> {
  return {
    gate,
    renders,
    async load(db, parents) {
      const ids = [...new Set(parents.map(idOf))];
      const groups = groupBy(ids.length === 0 ? [] : await find(db, ids), keyOf);
      return new Map(parents.map((parent) => [parent, groups.get(idOf(parent)) ?? []]));
    },
  };
}

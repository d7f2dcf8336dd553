import type { Item, List, NullResource, Pagination, SubuserAttributes } from '../servers/server-wire';

/**
 * Wire shapes of `GET /api/client/account/activity` and `GET /api/client/servers/{server}/activity`
 * (reference §6 `activity_log`, §7.1, §7.2 Core).
 */

/** Pterodactyl's client `user` object (UserTransformer), the actor of an entry. */
export type ActivityActorAttributes = Omit<SubuserAttributes, 'permissions'>;
export type ActivityActorItem = Item<'user', ActivityActorAttributes>;

export interface ActivityLogAttributes {
  /** sha1 of the entry's numeric id. */
  id: string;
  /** Groups entries of one operation; null for everything the panel records today. */
  batch: string | null;
  /** An `ActivityEvent`; kept a string so a client reads events of a newer panel too. */
  event: string;
  /** Made with an API key rather than the panel's own pages. */
  is_api: boolean;
  /** The address it came from: only for the actor themselves and root admins, else null. */
  ip: string | null;
  description: string | null;
  /**
   * What the event concerns (`{old, new}`, `{directory, files}`…). A list `x` comes with `x_count`, or with
   * `count` when it is the only list; `directory` reads `/x/`; an `ip` of someone else's entry reads `[hidden]`.
   */
  properties: Record<string, unknown>;
  /** True when the properties hold more than the event's description shows (the SPA offers a details view). */
  has_additional_metadata: boolean;
  timestamp: string;
  /** Only with `include=actor`: the user who did it, or null_resource (a sign-in attempt, a deleted user). */
  relationships?: { actor: ActivityActorItem | NullResource };
}

export type ActivityLogItem = Item<'activity_log', ActivityLogAttributes>;

export interface ActivityLogListResponse extends List<ActivityLogItem> {
  meta: { pagination: Pagination };
}

export const activityLimits = {
  perPageDefault: 25,
  perPageMax: 100,
} as const;

/** Error details of the activity routes (spatie/laravel-query-builder's wording). */
export const activityMessages = {
  invalidSort: (requested: readonly string[], allowed: readonly string[]) =>
    `Requested sort(s) \`${requested.join(', ')}\` is not allowed. Allowed sort(s) are \`${allowed.join(', ')}\`.`,
  /** What an `ip` property of someone else's entry reads. */
  hidden: '[hidden]',
} as const;

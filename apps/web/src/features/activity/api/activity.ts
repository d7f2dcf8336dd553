import {
  type ActivityLogItem,
  type ActivityLogListResponse,
  activityLimits,
} from '@aerie/shared/activity/activity-wire';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { serverKeys } from '@/features/servers/api/servers';
import { type PaginatedResult, toPagination } from '@/features/servers/api/transformers';
import { apiClient } from '@/lib/api-client';

/** Who did it: Pterodactyl's client `user` object, with include=actor. */
export interface ActivityActor {
  uuid: string;
  username: string;
  email: string;
  image: string;
}

/** One entry of an activity log (reference §6 `activity_log`). */
export interface ActivityEntry {
  id: string;
  /** `<area>:<subject>.<verb>`, e.g. `server:file.write`; a newer panel may send names this app does not know. */
  event: string;
  /** Made with an API key rather than the panel's pages. */
  isApi: boolean;
  /** Only for the reader's own entries (and root admins). */
  ip: string | null;
  description: string | null;
  properties: Record<string, unknown>;
  hasAdditionalMetadata: boolean;
  timestamp: Date;
  /** None for entries without one (a failed sign-in, a deleted user). */
  actor: ActivityActor | null;
}

export function toActivityEntry({ attributes }: ActivityLogItem): ActivityEntry {
  const actor = attributes.relationships?.actor;
  return {
    id: attributes.id,
    event: attributes.event,
    isApi: attributes.is_api,
    ip: attributes.ip,
    description: attributes.description,
    properties: attributes.properties ?? {},
    hasAdditionalMetadata: attributes.has_additional_metadata,
    timestamp: new Date(attributes.timestamp),
    actor:
      actor && actor.object === 'user'
        ? {
            uuid: actor.attributes.uuid,
            username: actor.attributes.username,
            email: actor.attributes.email,
            image: actor.attributes.image,
          }
        : null,
  };
}

/** Whose log: the signed-in account's, or a server's (activity.read). */
export type ActivitySource = { kind: 'account' } | { kind: 'server'; serverId: string };

export interface ActivityQuery {
  page: number;
  /** `filter[event]`: event names containing this text, any case. */
  event?: string;
}

const pathOf = (source: ActivitySource) =>
  source.kind === 'account'
    ? '/api/client/account/activity'
    : `/api/client/servers/${encodeURIComponent(source.serverId)}/activity`;

/** A server's log lives under the server's key, so leaving the server drops it with everything else. */
export const activityKeys = {
  all: (source: ActivitySource) =>
    source.kind === 'account'
      ? (['account', 'activity'] as const)
      : ([...serverKeys.detail(source.serverId), 'activity'] as const),
  page: (source: ActivitySource, query: ActivityQuery) => [...activityKeys.all(source), query] as const,
};

/** GET …/activity?page=&per_page=25&include=actor[&filter[event]=], newest first. */
export async function getActivity(
  source: ActivitySource,
  { page, event }: ActivityQuery,
  signal?: AbortSignal,
): Promise<PaginatedResult<ActivityEntry>> {
  const response = await apiClient.get<ActivityLogListResponse>(pathOf(source), {
    params: {
      page,
      per_page: activityLimits.perPageDefault,
      include: 'actor',
      'filter[event]': event || undefined,
    },
    signal,
  });
  return {
    items: response.data.map(toActivityEntry),
    pagination: toPagination(response.meta.pagination),
  };
}

export const activityQueryOptions = (source: ActivitySource, query: ActivityQuery) =>
  queryOptions({
    queryKey: activityKeys.page(source, query),
    queryFn: ({ signal }) => getActivity(source, query, signal),
    // The old page stays on screen while the next one loads, so the list does not jump.
    placeholderData: keepPreviousData,
  });

import type {
  ActivityLogAttributes,
  ActivityLogItem,
  ActivityLogListResponse,
} from '@aerie/shared/activity/activity-wire';

let counter = 0;

/** An actor as `include=actor` gives it (Pterodactyl's client `user` object). */
export const actorItem = (username: string, email = `${username}@example.com`, image = '') => ({
  object: 'user' as const,
  attributes: {
    uuid: `uuid-${username}`,
    username,
    email,
    image,
    '2fa_enabled': false,
    created_at: '2026-01-01T12:00:00+00:00',
  },
});

/** An `activity_log` entry with its actor (none when `actor` is null); every attribute can be overridden. */
export function activityItem(
  event: string,
  {
    actor = actorItem('casey'),
    ...overrides
  }: Partial<ActivityLogAttributes> & { actor?: ReturnType<typeof actorItem> | null } = {},
): ActivityLogItem {
  counter += 1;
  return {
    object: 'activity_log',
    attributes: {
      id: `entry-${counter}`,
      batch: null,
      event,
      is_api: false,
      ip: null,
      description: null,
      properties: {},
      has_additional_metadata: false,
      timestamp: new Date(Date.now() - 5 * 60_000).toISOString(),
      relationships: { actor: actor ?? { object: 'null_resource', attributes: null } },
      ...overrides,
    },
  };
}

/** A paginated `GET …/activity` answer (25 a page). */
export function activityPage(
  items: ActivityLogItem[],
  { currentPage = 1, totalPages = 1, total = items.length } = {},
): ActivityLogListResponse {
  return {
    object: 'list',
    data: items,
    meta: {
      pagination: {
        total,
        count: items.length,
        per_page: 25,
        current_page: currentPage,
        total_pages: totalPages,
        links: [],
      },
    },
  };
}

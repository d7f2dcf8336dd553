import { createHash } from 'node:crypto';
import { toWireDate } from '@aerie/panel/db/dialect';
import { nullResource } from '@aerie/panel/features/servers/server.presenter';
import { presentClientUser } from '@aerie/panel/features/users/user.presenter';
import { describedProperties } from '@aerie/shared/activity/activity-descriptions';
import { type ActivityLogItem, activityMessages } from '@aerie/shared/activity/activity-wire';
import type { ActivityRecord } from './activity.repository';

/** Who reads the log: what they may see of other people's entries depends on it. */
export interface ActivityViewer {
  id: number;
  rootAdmin: boolean;
}

/** Properties a description never needs to show (upstream's `hasAdditionalMetadata` leaves them out). */
const METADATA_ONLY = ['ip', 'useragent', 'using_sftp'];

/** `a//b` → `/a/b/`, as upstream shows directories. */
const normaliseDirectory = (value: string) => `/${value.replace(/^\/+|\/+$/g, '')}/`.replaceAll('//', '/');

/**
 * The properties as upstream's ActivityLogTransformer shows them: someone else's `ip` as `[hidden]`, each list `x`
 * followed by `x_count` (a lone count renamed `count`), `directory` as `/x/`.
 */
function presentProperties(record: ActivityRecord, viewer: ActivityViewer): Record<string, unknown> {
  const hideIp = record.actor !== null && record.actor.id !== viewer.id;
  const shown: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(record.properties)) {
    if (key === 'ip' && hideIp) shown[key] = activityMessages.hidden;
    else if (Array.isArray(value)) {
      shown[key] = value;
      shown[`${key}_count`] = value.length;
    } else shown[key] = key === 'directory' && typeof value === 'string' ? normaliseDirectory(value) : value;
  }
  const counts = Object.keys(shown).filter((key) => key.endsWith('_count'));
  if (counts.length === 1) {
    const [only] = counts as [string];
    const count = shown[only];
    delete shown[only];
    shown.count = count;
  }
  return shown;
}

/** `activity_log` (reference §6); `relationships.actor` only when the actor include was asked for. */
export function presentActivity(
  record: ActivityRecord,
  viewer: ActivityViewer,
  options: { includeActor: boolean; avatarTemplate: string | undefined },
): ActivityLogItem {
  const described = new Set([...describedProperties(record.event), ...METADATA_ONLY]);
  const canSeeIp = record.actor?.id === viewer.id || viewer.rootAdmin;
  return {
    object: 'activity_log',
    attributes: {
      // Not a secret: it only keeps the page from showing a counter of the panel's activity.
      id: createHash('sha1').update(String(record.id)).digest('hex'),
      batch: record.batch,
      event: record.event,
      is_api: record.isApi,
      ip: canSeeIp ? record.ip : null,
      description: null,
      properties: presentProperties(record, viewer),
      has_additional_metadata: Object.keys(record.properties).some((key) => !described.has(key)),
      timestamp: toWireDate(record.timestamp),
      ...(options.includeActor
        ? {
            relationships: {
              actor: record.actor ? presentClientUser(record.actor, options.avatarTemplate) : nullResource(),
            },
          }
        : {}),
    },
  };
}

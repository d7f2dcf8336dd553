import type { ActivityLog } from '@aerie/panel/features/activity/activity-log';
import type { Infrastructure } from '@aerie/panel/infrastructure';
import { ApiKeyService } from './api-keys.service';

/** Account API keys: creation, the client API's key checks, listing and revocation. */
export function createApiKeysFeature(
  infrastructure: Infrastructure,
  { activity }: { activity: ActivityLog },
) {
  const { db, clock, log } = infrastructure;
  return { apiKeys: new ApiKeyService({ db, clock, activity, log }) };
}

import type { ActivityLog } from '@aerie/panel/features/activity/activity-log';
import type { Infrastructure } from '@aerie/panel/infrastructure';
import { NetworkService } from './network.service';

/** The Network page's service: a server's allocations, within its limit and the range the admin allows. */
export function createNetworkFeature(
  { db, settings, daemon, clock, log }: Infrastructure,
  { activity }: { activity: ActivityLog },
) {
  return { network: new NetworkService({ db, settings, daemon, clock, log, activity }) };
}

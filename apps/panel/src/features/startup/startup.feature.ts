import type { ActivityLog } from '@aerie/panel/features/activity/activity-log';
import type { Infrastructure } from '@aerie/panel/infrastructure';
import { StartupService } from './startup.service';

/** The Startup page's service: the startup command, the egg's images and the user-editable variables. */
export function createStartupFeature(
  { db, daemon, clock, log }: Infrastructure,
  { activity }: { activity: ActivityLog },
) {
  return { startup: new StartupService({ db, daemon, clock, log, activity }) };
}

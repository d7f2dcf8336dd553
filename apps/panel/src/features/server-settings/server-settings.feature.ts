import type { ActivityLog } from '@aerie/panel/features/activity/activity-log';
import type { Infrastructure } from '@aerie/panel/infrastructure';
import { ServerSettingsService } from './server-settings.service';

/** The Settings page's service: rename, reinstall, and the Startup page's image switch. */
export function createServerSettingsFeature(
  { db, daemon, clock, log }: Infrastructure,
  { activity }: { activity: ActivityLog },
) {
  return { serverSettings: new ServerSettingsService({ db, daemon, clock, log, activity }) };
}

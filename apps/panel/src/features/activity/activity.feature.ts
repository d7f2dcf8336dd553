import type { Infrastructure } from '@aerie/panel/infrastructure';
import { ActivityService } from './activity.service';
import { ActivityLog } from './activity-log';

/**
 * The activity log: `activity` records (every feature that logs is given it), `activityLists` reads the account's
 * and a server's log.
 */
export function createActivityFeature({ db, clock, config }: Infrastructure) {
  return {
    activity: new ActivityLog({ clock }),
    activityLists: new ActivityService({ db, hideAdmin: config.activityHideAdmin }),
  };
}

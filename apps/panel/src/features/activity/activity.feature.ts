import type { Infrastructure } from '@aerie/panel/infrastructure';
import { ActivityService } from './activity.service';
import { ActivityLog } from './activity-log';
import { NodeActivity } from './node-activity';

/**
 * The activity log: `activity` records (every feature that logs is given it), `activityLists` reads the account's
 * and a server's log, `nodeActivity` writes what a daemon reports (`POST /api/remote/activity`).
 */
export function createActivityFeature({ db, clock, config, log }: Infrastructure) {
  return {
    activity: new ActivityLog({ clock }),
    activityLists: new ActivityService({ db, hideAdmin: config.activityHideAdmin }),
    nodeActivity: new NodeActivity({ db, clock, log }),
  };
}

import type { ActivityLog } from '@aerie/panel/features/activity/activity-log';
import type { Infrastructure } from '@aerie/panel/infrastructure';
import { MountsService } from './mounts.service';
import { ServerMountsService } from './server-mounts.service';

export function createMountsFeature({ db }: Infrastructure, { activity }: { activity: ActivityLog }) {
  return { mounts: new MountsService({ db }), serverMounts: new ServerMountsService({ db, activity }) };
}

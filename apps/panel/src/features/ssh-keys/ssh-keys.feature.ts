import type { ActivityLog } from '@aerie/panel/features/activity/activity-log';
import type { Infrastructure } from '@aerie/panel/infrastructure';
import { SshKeyService } from './ssh-keys.service';

/** Account SSH keys: the client API's list, add and remove, and the look-up SFTP logins by key use. */
export function createSshKeysFeature(
  infrastructure: Infrastructure,
  { activity }: { activity: ActivityLog },
) {
  const { db, clock } = infrastructure;
  return { sshKeys: new SshKeyService({ db, clock, activity }) };
}

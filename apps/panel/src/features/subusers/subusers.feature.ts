import type { ActivityLog } from '@aerie/panel/features/activity/activity-log';
import type { PasswordResetService } from '@aerie/panel/features/auth/password-reset.service';
import type { AccessRevocation } from '@aerie/panel/features/servers/access-revocation';
import type { Infrastructure } from '@aerie/panel/infrastructure';
import { SubusersService } from './subusers.service';

/** The Users page's service: subusers, invitations by email, and ending a removed subuser's access at once. */
export function createSubusersFeature(
  { db, clock }: Infrastructure,
  others: { activity: ActivityLog; revocation: AccessRevocation; passwordReset: PasswordResetService },
) {
  return {
    subusers: new SubusersService({
      db,
      clock,
      activity: others.activity,
      revocation: others.revocation,
      accounts: others.passwordReset,
    }),
  };
}

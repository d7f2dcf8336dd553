import type { ActivityLog } from '@aerie/panel/features/activity/activity-log';
import type { PasswordRecheck } from '@aerie/panel/features/auth/password-recheck';
import type { Sessions } from '@aerie/panel/features/auth/session/sessions';
import type { TotpVerifier } from '@aerie/panel/features/auth/totp-verifier';
import type { AccessRevocation } from '@aerie/panel/features/servers/access-revocation';
import type { Infrastructure } from '@aerie/panel/infrastructure';
import { AccountService } from './account.service';
import { TwoFactorService } from './two-factor.service';

/** The signed-in user's own account: email, password and two-factor authentication. */
export function createAccountFeature(
  infrastructure: Infrastructure,
  auth: { sessions: Sessions; recheck: PasswordRecheck; totp: TotpVerifier },
  servers: { revocation: AccessRevocation },
  { activity }: { activity: ActivityLog },
) {
  const { config, db, appKey, clock, secretBox } = infrastructure;
  const { sessions, recheck, totp } = auth;
  return {
    account: new AccountService({ db, sessions, recheck, revocation: servers.revocation, clock, activity }),
    twoFactor: new TwoFactorService({
      db,
      secretBox,
      totp,
      recheck,
      appKey,
      appName: config.appName,
      clock,
      activity,
    }),
  };
}

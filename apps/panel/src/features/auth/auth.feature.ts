import type { ActivityLog } from '@aerie/panel/features/activity/activity-log';
import type { AccessRevocation } from '@aerie/panel/features/servers/access-revocation';
import type { Infrastructure } from '@aerie/panel/infrastructure';
import { limits } from '@aerie/shared/limits';
import { CheckpointService } from './checkpoint.service';
import { LoginService } from './login.service';
import { LoginLockout } from './login-lockout';
import { PasswordRecheck } from './password-recheck';
import { PasswordResetService } from './password-reset.service';
import { RecaptchaVerifier } from './recaptcha';
import { SessionStore } from './session/session-store';
import { Sessions } from './session/sessions';
import { TotpVerifier } from './totp-verifier';

/**
 * Sign-in and what proves who a user is: sessions, the login lockout, the 2FA checkpoint and verifier, password
 * resets, reCAPTCHA, and the password re-check throttle the account pages share.
 */
export function createAuthFeature(
  infrastructure: Infrastructure,
  servers: { revocation: AccessRevocation },
  { activity }: { activity: ActivityLog },
) {
  const { config, db, appKey, clock, secretBox, mailer, settings, log } = infrastructure;
  const sessions = new Sessions(new SessionStore(db), { ttlMs: limits.sessionTtlMs, clock });
  const lockout = new LoginLockout();
  const totp = new TotpVerifier({ db, secretBox, windowSteps: config.totpWindow, clock });
  return {
    sessions,
    totp,
    recheck: new PasswordRecheck(),
    recaptcha: new RecaptchaVerifier({
      settings: () => settings.recaptcha(),
      verifyUrl: config.recaptcha.verifyUrl,
      log,
    }),
    login: new LoginService({ db, lockout, clock, activity }),
    checkpoint: new CheckpointService({ db, lockout, totp, appKey, clock, activity }),
    passwordReset: new PasswordResetService({
      db,
      mailer,
      sessions,
      revocation: servers.revocation,
      appUrl: config.appUrl,
      appName: () => settings.appName(),
      clock,
      log,
    }),
  };
}

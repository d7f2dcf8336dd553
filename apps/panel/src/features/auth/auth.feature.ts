import type { ActivityLog } from '@aerie/panel/features/activity/activity-log';
import type { AccessRevocation } from '@aerie/panel/features/servers/access-revocation';
import type { Infrastructure } from '@aerie/panel/infrastructure';
import { MailTexts } from '@aerie/panel/mail/mail-texts';
import { limits } from '@aerie/shared/limits';
import { CheckpointService } from './checkpoint.service';
import { KnownAddresses } from './known-addresses';
import { LoginService } from './login.service';
import { PasswordRecheck } from './password-recheck';
import { PasswordResetService } from './password-reset.service';
import { PasswordResetThrottle } from './password-reset-throttle';
import { RecaptchaVerifier } from './recaptcha';
import { SessionStore } from './session/session-store';
import { Sessions } from './session/sessions';
import { SignInThrottle } from './sign-in-throttle';
import { TotpVerifier } from './totp-verifier';

/**
 * Sign-in and what proves who a user is: sessions, the sign-in throttle, the 2FA checkpoint and verifier, password
 * resets, reCAPTCHA, and the password re-check throttle the account pages share.
 */
export function createAuthFeature(
  infrastructure: Infrastructure,
  servers: { revocation: AccessRevocation },
  { activity }: { activity: ActivityLog },
) {
  const { config, db, appKey, clock, secretBox, mailer, settings, shared, log } = infrastructure;
  const sessions = new Sessions(new SessionStore(db), { ttlMs: limits.sessionTtlMs, clock });
  const throttle = new SignInThrottle({
    store: shared,
    known: new KnownAddresses({ db, appKey, clock }),
    captchaEnabled: async () => (await settings.recaptcha()).enabled,
  });
  const totp = new TotpVerifier({ db, secretBox, windowSteps: config.totpWindow, clock });
  return {
    sessions,
    /** The web sign-in's, and SFTP logins' too: one account, one budget of guesses whichever door they use. */
    signInThrottle: throttle,
    totp,
    recheck: new PasswordRecheck(shared),
    passwordResetThrottle: new PasswordResetThrottle(shared),
    recaptcha: new RecaptchaVerifier({
      settings: () => settings.recaptcha(),
      verifyUrl: config.recaptcha.verifyUrl,
      log,
    }),
    login: new LoginService({ db, throttle, clock, activity }),
    checkpoint: new CheckpointService({ db, throttle, totp, appKey, clock, activity }),
    passwordReset: new PasswordResetService({
      db,
      mailer,
      mailTexts: new MailTexts(config.webDist),
      sessions,
      revocation: servers.revocation,
      appUrl: config.appUrl,
      appName: () => settings.appName(),
      clock,
      log,
    }),
  };
}

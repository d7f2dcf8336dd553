import type { ActivityLog } from '@aerie/panel/features/activity/activity-log';
import type { PasswordRecheck } from '@aerie/panel/features/auth/password-recheck';
import type { SignInThrottle } from '@aerie/panel/features/auth/sign-in-throttle';
import type { Infrastructure } from '@aerie/panel/infrastructure';
import { PasskeySignInService } from './passkey-sign-in.service';
import { PasskeysService } from './passkeys.service';
import { relyingPartyOf } from './relying-party';

/** Passkeys (WebAuthn): the account page's list, and signing in with one, alone or as the second factor. */
export function createPasskeysFeature(
  infrastructure: Infrastructure,
  { recheck, signInThrottle }: { recheck: PasswordRecheck; signInThrottle: SignInThrottle },
  { activity }: { activity: ActivityLog },
) {
  const { db, clock, config, settings } = infrastructure;
  const relyingParty = relyingPartyOf(config.appUrl);
  return {
    passkeys: new PasskeysService({
      db,
      relyingParty,
      appName: () => settings.appName(),
      recheck,
      clock,
      activity,
    }),
    passkeySignIn: new PasskeySignInService({
      db,
      relyingParty,
      throttle: signInThrottle,
      settings,
      clock,
      activity,
    }),
  };
}

import type { Config } from '@aerie/panel/config/load-config';
import { SecretBox } from '@aerie/panel/crypto/secret-box';
import { DaemonClient } from '@aerie/panel/daemon-client/daemon-client';
import type { Db } from '@aerie/panel/db/database';
import { AccountService } from '@aerie/panel/features/account/account.service';
import { TwoFactorService } from '@aerie/panel/features/account/two-factor.service';
import { ApiKeyService } from '@aerie/panel/features/api-keys/api-keys.service';
import { CheckpointService } from '@aerie/panel/features/auth/checkpoint.service';
import { LoginService } from '@aerie/panel/features/auth/login.service';
import { LoginLockout } from '@aerie/panel/features/auth/login-lockout';
import { PasswordRecheck } from '@aerie/panel/features/auth/password-recheck';
import { PasswordResetService } from '@aerie/panel/features/auth/password-reset.service';
import { RecaptchaVerifier } from '@aerie/panel/features/auth/recaptcha';
import { SessionStore } from '@aerie/panel/features/auth/session/session-store';
import { Sessions } from '@aerie/panel/features/auth/session/sessions';
import { TotpVerifier } from '@aerie/panel/features/auth/totp-verifier';
import { PanelSettings } from '@aerie/panel/features/panel-settings/panel-settings';
import { AccessRevocation } from '@aerie/panel/features/servers/access-revocation';
import type { Log } from '@aerie/panel/logging/log';
import { Mailer } from '@aerie/panel/mail/mailer';
import { limits } from '@aerie/shared/limits';

/**
 * Revocation calls every node while the user waits for their password change: a node that does not answer
 * within this is logged and left (its tokens expire on their own).
 */
const REVOCATION_TIMEOUT_MS = 3000;

/** What the panel's routes share: configuration, the database and the services built on them. */
export interface AppContext {
  config: Config;
  db: Db;
  appKey: Buffer;
  clock: () => Date;
  secretBox: SecretBox;
  sessions: Sessions;
  mailer: Mailer;
  recaptcha: RecaptchaVerifier;
  login: LoginService;
  checkpoint: CheckpointService;
  passwordReset: PasswordResetService;
  settings: PanelSettings;
  apiKeys: ApiKeyService;
  account: AccountService;
  twoFactor: TwoFactorService;
  /** Tells the daemons to end a user's live access (AccessRevocation). */
  revocation: AccessRevocation;
  /** Calls to the nodes' daemons, with the default time-outs. */
  daemon: DaemonClient;
}

export function createAppContext(input: {
  config: Config;
  db: Db;
  appKey: Buffer;
  log: Log;
  clock?: () => Date;
}): AppContext {
  const { config, db, appKey, log } = input;
  const clock = input.clock ?? (() => new Date());
  const secretBox = new SecretBox(appKey);
  const sessions = new Sessions(new SessionStore(db), { ttlMs: limits.sessionTtlMs, clock });
  const mailer = new Mailer(config, log);
  const lockout = new LoginLockout();
  const recheck = new PasswordRecheck();
  const revocation = new AccessRevocation({
    db,
    daemon: new DaemonClient(secretBox, { timeoutMs: REVOCATION_TIMEOUT_MS }),
    log,
  });
  const totp = new TotpVerifier({ db, secretBox, windowSteps: config.totpWindow, clock });
  return {
    config,
    db,
    appKey,
    clock,
    secretBox,
    sessions,
    mailer,
    recaptcha: new RecaptchaVerifier(config.recaptcha, log),
    login: new LoginService({ db, lockout, clock }),
    checkpoint: new CheckpointService({ db, lockout, totp, appKey, clock }),
    passwordReset: new PasswordResetService({
      db,
      mailer,
      sessions,
      revocation,
      appUrl: config.appUrl,
      appName: config.appName,
      clock,
      log,
    }),
    settings: new PanelSettings({ db, clock, defaults: { twoFactorRequired: config.twoFactorRequired } }),
    apiKeys: new ApiKeyService({ db, clock, log }),
    account: new AccountService({ db, sessions, recheck, revocation, clock }),
    twoFactor: new TwoFactorService({
      db,
      secretBox,
      totp,
      recheck,
      appKey,
      appName: config.appName,
      clock,
    }),
    revocation,
    daemon: new DaemonClient(secretBox),
  };
}

import { limits } from '@aerie/shared/limits';
import type { FastifyBaseLogger } from 'fastify';
import { CheckpointService } from './auth/checkpoint.service';
import { LoginService } from './auth/login.service';
import { LoginLockout } from './auth/login-lockout';
import { PasswordResetService } from './auth/password-reset.service';
import { RecaptchaVerifier } from './auth/recaptcha';
import { SessionStore } from './auth/session/session-store';
import { Sessions } from './auth/session/sessions';
import type { Config } from './config/load-config';
import { SecretBox } from './crypto/secret-box';
import type { Db } from './db/database';
import { Mailer } from './mail/mailer';

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
}

export function createAppContext(input: {
  config: Config;
  db: Db;
  appKey: Buffer;
  log: FastifyBaseLogger;
  clock?: () => Date;
}): AppContext {
  const { config, db, appKey, log } = input;
  const clock = input.clock ?? (() => new Date());
  const secretBox = new SecretBox(appKey);
  const sessions = new Sessions(new SessionStore(db), { ttlMs: limits.sessionTtlMs, clock });
  const mailer = new Mailer(config, log);
  const lockout = new LoginLockout();
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
    checkpoint: new CheckpointService({
      db,
      lockout,
      secretBox,
      appKey,
      totpWindow: config.totpWindow,
      clock,
    }),
    passwordReset: new PasswordResetService({
      db,
      mailer,
      sessions,
      appUrl: config.appUrl,
      appName: config.appName,
      clock,
      log,
    }),
  };
}

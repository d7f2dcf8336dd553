import type { SecretBox } from '@aerie/panel/crypto/secret-box';
import type { Db } from '@aerie/panel/db/database';
import { type ActivityLog, accountActivity } from '@aerie/panel/features/activity/activity-log';
import type { PasswordRecheck } from '@aerie/panel/features/auth/password-recheck';
import { forgetRecoveryTokens, issueRecoveryTokens } from '@aerie/panel/features/auth/recovery-tokens';
import { newTotpSecret } from '@aerie/panel/features/auth/totp';
import type { TotpVerifier } from '@aerie/panel/features/auth/totp-verifier';
import type { User } from '@aerie/panel/features/users/user';
import { disableTotp, enableTotp, storePendingTotpSecret } from '@aerie/panel/features/users/user-writes';
import { badRequest, HttpError } from '@aerie/panel/http/errors';
import type { RequestOrigin } from '@aerie/panel/http/request-origin';
import { accountErrorMessages } from '@aerie/shared/account/account-wire';

/** Turning TOTP two-factor authentication on and off for the signed-in user (reference §4.3). */
export class TwoFactorService {
  constructor(
    private readonly deps: {
      db: Db;
      secretBox: SecretBox;
      totp: TotpVerifier;
      recheck: PasswordRecheck;
      appKey: Buffer;
      appName: string;
      clock: () => Date;
      activity: ActivityLog;
    },
  ) {}

  /**
   * Starts the setup: a new secret, stored sealed but not enabled yet (it replaces any earlier unconfirmed one).
   * @returns the otpauth:// URI for the QR code and the secret to type in by hand
   * @throws HttpError 400 BadRequestHttpException when 2FA is already enabled
   */
  async setup(user: User): Promise<{ image_url_data: string; secret: string }> {
    if (user.useTotp) throw badRequest(accountErrorMessages.twoFactorAlreadyEnabled);
    const secret = newTotpSecret();
    // A new secret has no used codes yet: the replay memory starts over with it.
    await storePendingTotpSecret(this.deps.db, user.id, this.deps.secretBox.seal(secret));
    // Authenticator apps split the label on ':' and show the issuer; spaces in it are dropped, as Pterodactyl does.
    const issuer = encodeURIComponent(this.deps.appName.replace(/\s/g, ''));
    return {
      image_url_data: `otpauth://totp/${issuer}:${encodeURIComponent(user.email)}?secret=${secret}&issuer=${issuer}`,
      secret,
    };
  }

  /**
   * Confirms the setup with the account password and a current code from the app.
   * @returns ten new single-use recovery tokens (any earlier ones are deleted)
   * @throws HttpError 429 after too many wrong passwords (PasswordRecheck); 400 BadRequestHttpException for a
   *   wrong password; 400 TwoFactorAuthenticationTokenInvalid for a wrong, expired or already used code
   */
  async enable(
    user: User,
    origin: RequestOrigin,
    input: { code: string; password: string },
  ): Promise<string[]> {
    await this.assertPassword(user, origin.ip, input.password);
    if (!(await this.deps.totp.accept(user, input.code))) {
      throw new HttpError(
        400,
        'TwoFactorAuthenticationTokenInvalid',
        accountErrorMessages.twoFactorTokenInvalid,
      );
    }
    const now = this.deps.clock();
    const tokens = await issueRecoveryTokens(this.deps.db, this.deps.appKey, user.id, now);
    await this.deps.db.transaction().execute(async (tx) => {
      await enableTotp(tx, user.id, now);
      await this.deps.activity.record(tx, {
        event: 'user:two-factor.create',
        ...accountActivity(user, origin),
      });
    });
    return tokens;
  }

  /**
   * Turns 2FA off with the account password: the secret and the recovery tokens are deleted. Succeeds as well
   * when 2FA was not on.
   * @throws HttpError 429 after too many wrong passwords (PasswordRecheck); 400 BadRequestHttpException for a
   *   wrong or missing password
   */
  async disable(user: User, origin: RequestOrigin, password: unknown): Promise<void> {
    await this.assertPassword(user, origin.ip, password);
    const now = this.deps.clock();
    await this.deps.db.transaction().execute(async (tx) => {
      await forgetRecoveryTokens(tx, user.id);
      await disableTotp(tx, user.id, now);
      await this.deps.activity.record(tx, {
        event: 'user:two-factor.delete',
        ...accountActivity(user, origin),
      });
    });
  }

  private assertPassword(user: User, ip: string, password: unknown): Promise<void> {
    return this.deps.recheck.verify(user, ip, password, () =>
      badRequest(accountErrorMessages.twoFactorPasswordInvalid),
    );
  }
}

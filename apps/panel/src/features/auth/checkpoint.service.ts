import { safeEqual, sha256 } from '@aerie/panel/crypto/tokens';
import type { Db } from '@aerie/panel/db/database';
import { type ActivityLog, requestMetadata } from '@aerie/panel/features/activity/activity-log';
import { pendingCheckpoint } from '@aerie/panel/features/auth/session/session-data';
import type { ActiveSession } from '@aerie/panel/features/auth/session/sessions';
import type { User } from '@aerie/panel/features/users/user';
import { findUserById } from '@aerie/panel/features/users/user-lookups';
import { displayError } from '@aerie/panel/http/errors';
import type { RequestOrigin } from '@aerie/panel/http/request-origin';
import { errorMessages } from '@aerie/shared/errors/error-envelope';
import { consumeRecoveryToken } from './recovery-tokens';
import { type SignInThrottle, signInAccount, signInLockout } from './sign-in-throttle';
import type { TotpVerifier } from './totp-verifier';

export interface CheckpointInput {
  confirmationToken: string;
  authenticationCode: string | null | undefined;
  recoveryToken: string | null | undefined;
}

/** The second step of a 2FA sign-in (POST /auth/login/checkpoint). */
export class CheckpointService {
  constructor(
    private readonly deps: {
      db: Db;
      throttle: SignInThrottle;
      totp: TotpVerifier;
      appKey: Buffer;
      clock: () => Date;
      activity: ActivityLog;
    },
  ) {}

  /**
   * @param session the browser's session: the confirmation token is only valid in the session it was issued to
   * @returns the user to sign in
   * @throws HttpError 429 when the sign-in throttle refuses (the login's counts: codes and passwords add up); 400 DisplayException when the step expired, the confirmation token does
   *   not match, or the code / recovery token is wrong (each failure counts toward the lockout and, once the
   *   account is known, is logged on it as `auth:fail`)
   */
  async complete(
    origin: RequestOrigin,
    session: ActiveSession | null,
    input: CheckpointInput,
  ): Promise<User> {
    const { db, throttle, clock } = this.deps;
    const { ip } = origin;
    await throttle.assertAddressAllowed(ip);
    const pending = pendingCheckpoint(session?.data, clock());
    if (!pending) throw displayError(errorMessages.checkpointExpired);
    const account = signInAccount(pending.userId, '');
    const admission = await throttle.admit(ip, account, 'web');
    if (!admission.admitted) {
      const pendingUser = await findUserById(db, pending.userId);
      if (pendingUser && (await throttle.shouldLogRefusal(ip, account)))
        await this.deps.activity.record(db, {
          event: 'auth:throttled',
          actor: null,
          subjects: { user: pendingUser },
          ip,
          isApi: false,
          properties: requestMetadata(origin),
        });
      throw signInLockout(admission.wait);
    }
    const { attempt } = admission;

    const fail = async (message: string) => {
      await throttle.recordFailure(attempt);
      return displayError(message);
    };
    if (!safeEqual(sha256(input.confirmationToken), pending.tokenHash)) {
      throw await fail(errorMessages.checkpointInvalidCode);
    }
    const user = await findUserById(db, pending.userId);
    if (!user) throw displayError(errorMessages.checkpointExpired);
    const record = (event: 'auth:fail' | 'auth:token' | 'auth:recovery-token') =>
      this.deps.activity.record(db, {
        event,
        actor: null,
        subjects: { user },
        ip,
        isApi: false,
        properties: requestMetadata(origin),
      });

    if (input.recoveryToken) {
      if (!(await consumeRecoveryToken(db, this.deps.appKey, user.id, input.recoveryToken))) {
        await record('auth:fail');
        throw await fail(errorMessages.checkpointInvalidRecovery);
      }
      await record('auth:recovery-token');
    } else if (!(await this.codeIsValid(user, input.authenticationCode ?? ''))) {
      await record('auth:fail');
      throw await fail(errorMessages.checkpointInvalidCode);
    } else {
      await record('auth:token');
    }
    await throttle.succeeded(attempt);
    return user;
  }

  /** A code is good once: a replay inside its drift window is refused (TotpVerifier). */
  private async codeIsValid(user: User, code: string): Promise<boolean> {
    if (!user.useTotp) return false;
    return this.deps.totp.accept(user, code);
  }
}

import type { SecretBox } from '@aerie/panel/crypto/secret-box';
import type { Db } from '@aerie/panel/db/database';
import type { User } from '@aerie/panel/features/users/user';
import { claimTotpStep } from '@aerie/panel/features/users/user-writes';
import { matchTotp } from './totp';

/**
 * Accepts a user's TOTP code at most once: the time step of every accepted code is remembered on the user
 * (`users.totp_last_step`) and codes of that step or older are refused, within the whole drift window. Used by
 * the sign-in checkpoint and by enabling 2FA.
 */
export class TotpVerifier {
  constructor(
    private readonly deps: { db: Db; secretBox: SecretBox; windowSteps: number; clock: () => Date },
  ) {}

  /**
   * @returns true when `code` is valid for the user's sealed secret and was not accepted before; the step is then
   *   recorded, atomically, so two requests racing with the same code cannot both pass
   */
  async accept(user: User, code: string): Promise<boolean> {
    if (!user.totpSecret) return false;
    let secret: string;
    try {
      secret = this.deps.secretBox.open(user.totpSecret);
    } catch {
      // Sealed under another app key: the code cannot be checked, which must not let anyone through.
      return false;
    }
    const step = await matchTotp(secret, code, {
      windowSteps: this.deps.windowSteps,
      now: this.deps.clock(),
      afterStep: user.totpLastStep,
    });
    if (step === null) return false;
    return claimTotpStep(this.deps.db, user.id, step);
  }
}

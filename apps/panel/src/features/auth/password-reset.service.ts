import { randomBytes } from 'node:crypto';
import { safeEqual, sha256 } from '@aerie/panel/crypto/tokens';
import type { Db } from '@aerie/panel/db/database';
import { readDate } from '@aerie/panel/db/dialect';
import type { Sessions } from '@aerie/panel/features/auth/session/sessions';
import type { AccessRevocation } from '@aerie/panel/features/servers/access-revocation';
import type { User } from '@aerie/panel/features/users/user';
import { findUserByEmail, normaliseLogin } from '@aerie/panel/features/users/user-lookups';
import { updatePasswordHash } from '@aerie/panel/features/users/user-writes';
import { displayError } from '@aerie/panel/http/errors';
import type { Log } from '@aerie/panel/logging/log';
import { accountCreatedMail } from '@aerie/panel/mail/account-created-mail';
import type { MailTexts } from '@aerie/panel/mail/mail-texts';
import type { Mailer } from '@aerie/panel/mail/mailer';
import { passwordResetMail } from '@aerie/panel/mail/password-reset-mail';
import { errorMessages } from '@aerie/shared/errors/error-envelope';
import { limits } from '@aerie/shared/limits';
import { deletePasswordResets, insertPasswordReset, latestPasswordReset } from './auth.repository';
import { hashPassword } from './password-hash';

/** A new link for the same address is sent at most once a minute. */
const REISSUE_AFTER_MS = 60_000;

/** Forgotten-password flow: the reset link by mail, then the new password. */
export class PasswordResetService {
  constructor(
    private readonly deps: {
      db: Db;
      mailer: Mailer;
      /** The mails' texts in each reader's language. */
      mailTexts: MailTexts;
      sessions: Sessions;
      revocation: AccessRevocation;
      appUrl: string;
      /** The product name at the time of sending (panel settings). */
      appName: () => Promise<string>;
      clock: () => Date;
      log: Log;
    },
  ) {}

  /**
   * Mails a reset link when the address belongs to an account and no link went out in the last minute.
   * Says nothing either way: the caller answers the same for every address.
   */
  async requestLink(email: string): Promise<void> {
    const { db, clock } = this.deps;
    const user = await findUserByEmail(db, email);
    if (!user) return;
    const now = clock();
    const latest = await this.latestFor(user.email);
    if (latest && now.getTime() - readDate(latest.created_at).getTime() < REISSUE_AFTER_MS) return;

    const link = await this.#newLink(user, now);
    if (await this.deps.mailer.isLocalOutbox())
      this.deps.log.info(`Password reset link for ${user.email}: ${link}`);
    this.deps.mailer.queue(
      passwordResetMail(await this.deps.mailTexts.for(user.language), {
        to: user.email,
        link,
        appName: await this.deps.appName(),
        minutes: limits.passwordResetTtlMs / 60_000,
      }),
    );
  }

  /**
   * Mails someone an account was just made for (an invited subuser) their username and a link to choose their
   * password: a reset link, valid as long as any other.
   */
  async mailAccountCreated(user: Pick<User, 'email' | 'username' | 'language'>): Promise<void> {
    const link = await this.#newLink(user, this.deps.clock());
    if (await this.deps.mailer.isLocalOutbox())
      this.deps.log.info(`Account set-up link for ${user.email}: ${link}`);
    this.deps.mailer.queue(
      accountCreatedMail(await this.deps.mailTexts.for(user.language), {
        to: user.email,
        username: user.username,
        link,
        appName: await this.deps.appName(),
        minutes: limits.passwordResetTtlMs / 60_000,
      }),
    );
  }

  /** A new reset token for the address (replacing any earlier one) and the page's link with it. */
  async #newLink(user: Pick<User, 'email'>, now: Date): Promise<string> {
    const token = randomBytes(32).toString('hex');
    await this.deps.db.transaction().execute(async (tx) => {
      await deletePasswordResets(tx, user.email);
      await insertPasswordReset(tx, user.email, sha256(token), now);
    });
    return `${this.deps.appUrl}/auth/password/reset/${token}?email=${encodeURIComponent(user.email)}`;
  }

  /**
   * Sets the new password, uses up the token and ends every session of the user, and their live console sockets
   * and signed file URLs on every node.
   * @throws HttpError 400 DisplayException "This password reset token is invalid." for an unknown address,
   *   a wrong token or one older than 60 minutes
   */
  async reset(input: { email: string; token: string; password: string }): Promise<User> {
    const { db, clock } = this.deps;
    const now = clock();
    const user = await findUserByEmail(db, input.email);
    const latest = user ? await this.latestFor(user.email) : undefined;
    const valid =
      user &&
      latest &&
      safeEqual(sha256(input.token), latest.token) &&
      now.getTime() - readDate(latest.created_at).getTime() < limits.passwordResetTtlMs;
    if (!valid) throw displayError(errorMessages.resetTokenInvalid);

    const passwordHash = await hashPassword(input.password);
    // Only the request that deletes the token may change the password: a token works once even under a race.
    const used = await db.transaction().execute(async (tx) => {
      if ((await deletePasswordResets(tx, user.email)) === 0) return false;
      await updatePasswordHash(tx, user.id, passwordHash, now);
      return true;
    });
    if (!used) throw displayError(errorMessages.resetTokenInvalid);
    await this.deps.sessions.signOutEverywhere(user.id);
    await this.deps.revocation.revokeUserEverywhere(user);
    return { ...user, passwordHash, updatedAt: now };
  }

  private latestFor(email: string) {
    return latestPasswordReset(this.deps.db, normaliseLogin(email));
  }
}

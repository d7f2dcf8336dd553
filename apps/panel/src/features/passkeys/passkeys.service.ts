import type { Db } from '@aerie/panel/db/database';
import { isUniqueViolation } from '@aerie/panel/db/dialect';
import { type ActivityLog, accountActivity } from '@aerie/panel/features/activity/activity-log';
import type { PasswordRecheck } from '@aerie/panel/features/auth/password-recheck';
import type { PasskeyCeremony } from '@aerie/panel/features/auth/session/session-data';
import type { User } from '@aerie/panel/features/users/user';
import { lockUserRow } from '@aerie/panel/features/users/user-writes';
import { badRequest, displayError, notFound } from '@aerie/panel/http/errors';
import type { RequestOrigin } from '@aerie/panel/http/request-origin';
import { accountErrorMessages } from '@aerie/shared/account/account-wire';
import { passkeyLimits, passkeyMessages } from '@aerie/shared/passkeys/passkeys-wire';
import {
  generateRegistrationOptions,
  type PublicKeyCredentialCreationOptionsJSON,
  type RegistrationResponseJSON,
  verifyRegistrationResponse,
} from '@simplewebauthn/server';
import { isoBase64URL, isoUint8Array } from '@simplewebauthn/server/helpers';
import type { Passkey } from './passkey';
import {
  countPasskeys,
  deletePasskey,
  findOwnPasskey,
  hasPasskeyNamed,
  insertPasskey,
  listPasskeys,
  renamePasskey,
} from './passkeys.repository';
import { newCeremony, pendingCeremony, type RelyingParty } from './relying-party';

/** The WebAuthn user handle of an account: its uuid, which names nobody (the spec asks for no personal data). */
export const userHandleOf = (user: Pick<User, 'uuid'>) => isoUint8Array.fromUTF8String(user.uuid);

/** The account page's passkeys: register (password first), list, rename, remove. */
export class PasskeysService {
  constructor(
    private readonly deps: {
      db: Db;
      relyingParty: RelyingParty;
      appName: () => Promise<string>;
      recheck: PasswordRecheck;
      clock: () => Date;
      activity: ActivityLog;
    },
  ) {}

  list(user: User): Promise<Passkey[]> {
    return listPasskeys(this.deps.db, user.id);
  }

  /**
   * Starts a registration once the account password is right: the browser's creation options, and the ceremony
   * the session keeps. Discoverable credentials with user verification, so the passkey alone can sign in.
   * @throws HttpError 429 after too many wrong passwords; 400 for a wrong password or a full account
   */
  async registrationOptions(
    user: User,
    origin: RequestOrigin,
    password: string,
  ): Promise<{ options: PublicKeyCredentialCreationOptionsJSON; ceremony: PasskeyCeremony }> {
    await this.deps.recheck.verify(user, origin.ip, password, () =>
      badRequest(accountErrorMessages.invalidPassword),
    );
    const existing = await listPasskeys(this.deps.db, user.id);
    if (existing.length >= passkeyLimits.perAccount) throw displayError(passkeyMessages.tooMany);
    const options = await generateRegistrationOptions({
      rpName: await this.deps.appName(),
      rpID: this.deps.relyingParty.id,
      userName: user.email,
      userID: userHandleOf(user),
      userDisplayName: user.username,
      attestationType: 'none',
      // The browser refuses to make a second passkey for this account on an authenticator that holds one.
      excludeCredentials: existing.map((key) => ({ id: key.credentialId, transports: key.transports })),
      authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
    });
    return { options, ceremony: newCeremony(options.challenge, 'register', user.id, this.deps.clock()) };
  }

  /**
   * Verifies the browser's answer to the session's registration ceremony and stores the passkey. The count and
   * name checks and the insert run under a lock on the user's row, so parallel registrations cannot pass the
   * limit.
   * @throws HttpError 400 when the ceremony expired or belongs to someone else, the answer does not verify, the
   *   name is taken, the account is full, or the credential is already registered
   */
  async register(
    user: User,
    origin: RequestOrigin,
    ceremony: PasskeyCeremony | undefined,
    input: { name: string; credential: unknown },
  ): Promise<Passkey> {
    const pending = pendingCeremony(ceremony, 'register', this.deps.clock());
    if (pending.userId !== user.id) throw displayError(passkeyMessages.ceremonyExpired);
    const { relyingParty } = this.deps;
    const verification = await verifyRegistrationResponse({
      response: input.credential as RegistrationResponseJSON,
      expectedChallenge: pending.challenge,
      expectedOrigin: relyingParty.origin,
      expectedRPID: relyingParty.id,
      requireUserVerification: true,
    }).catch(() => ({ verified: false as const }));
    if (!verification.verified) throw displayError(passkeyMessages.notVerified);
    const { credential, credentialBackedUp } = verification.registrationInfo;
    return this.deps.db.transaction().execute(async (tx) => {
      await lockUserRow(tx, user.id);
      if ((await countPasskeys(tx, user.id)) >= passkeyLimits.perAccount)
        throw displayError(passkeyMessages.tooMany);
      if (await hasPasskeyNamed(tx, user.id, input.name)) throw displayError(passkeyMessages.nameTaken);
      const passkey = await insertPasskey(
        tx,
        {
          userId: user.id,
          name: input.name,
          credentialId: credential.id,
          publicKey: isoBase64URL.fromBuffer(credential.publicKey),
          counter: credential.counter,
          transports: credential.transports ?? [],
          backedUp: credentialBackedUp,
        },
        this.deps.clock(),
      ).catch((error: unknown) => {
        // The unique credential hash: the same authenticator's credential is already someone's passkey.
        throw isUniqueViolation(error) ? displayError(passkeyMessages.notVerified) : error;
      });
      await this.deps.activity.record(tx, {
        event: 'user:passkey.create',
        ...accountActivity(user, origin),
        properties: { name: passkey.name },
      });
      return passkey;
    });
  }

  /** @throws HttpError 404 for a passkey that is not the user's; 400 when the name is taken */
  async rename(user: User, origin: RequestOrigin, id: number, name: string): Promise<Passkey> {
    return this.deps.db.transaction().execute(async (tx) => {
      await lockUserRow(tx, user.id);
      const passkey = await findOwnPasskey(tx, user.id, id);
      if (!passkey) throw notFound();
      if (passkey.name === name) return passkey;
      if (await hasPasskeyNamed(tx, user.id, name, id)) throw displayError(passkeyMessages.nameTaken);
      await renamePasskey(tx, id, name);
      await this.deps.activity.record(tx, {
        event: 'user:passkey.update',
        ...accountActivity(user, origin),
        properties: { old: passkey.name, new: name },
      });
      return { ...passkey, name };
    });
  }

  /**
   * Removes one of the user's passkeys; it signs in nowhere from then on. Every account keeps its password, so
   * removing the last passkey never locks anyone out.
   * @throws HttpError 404 for a passkey that is not the user's
   */
  async remove(user: User, origin: RequestOrigin, id: number): Promise<void> {
    await this.deps.db.transaction().execute(async (tx) => {
      const passkey = await findOwnPasskey(tx, user.id, id);
      if (!passkey) throw notFound();
      await deletePasskey(tx, id);
      await this.deps.activity.record(tx, {
        event: 'user:passkey.delete',
        ...accountActivity(user, origin),
        properties: { name: passkey.name },
      });
    });
  }
}

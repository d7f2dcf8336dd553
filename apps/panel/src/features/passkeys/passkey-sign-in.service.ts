import { safeEqual, sha256 } from '@aerie/panel/crypto/tokens';
import type { Db } from '@aerie/panel/db/database';
import { type ActivityLog, requestMetadata } from '@aerie/panel/features/activity/activity-log';
import {
  type PasskeyCeremony,
  pendingCheckpoint,
  type SessionData,
} from '@aerie/panel/features/auth/session/session-data';
import {
  type SignInAttempt,
  type SignInThrottle,
  signInAccount,
  signInLockout,
} from '@aerie/panel/features/auth/sign-in-throttle';
import { assertSignInWithoutSso } from '@aerie/panel/features/oauth/oauth-lookups';
import type { PanelSettings } from '@aerie/panel/features/panel-settings/panel-settings';
import type { User } from '@aerie/panel/features/users/user';
import { findUserById } from '@aerie/panel/features/users/user-lookups';
import { displayError } from '@aerie/panel/http/errors';
import type { RequestOrigin } from '@aerie/panel/http/request-origin';
import { errorMessages } from '@aerie/shared/errors/error-envelope';
import { passkeyMessages } from '@aerie/shared/passkeys/passkeys-wire';
import {
  type AuthenticationResponseJSON,
  generateAuthenticationOptions,
  type PublicKeyCredentialRequestOptionsJSON,
  verifyAuthenticationResponse,
} from '@simplewebauthn/server';
import { isoBase64URL } from '@simplewebauthn/server/helpers';
import type { Passkey } from './passkey';
import { findPasskeyByCredential, listPasskeys, recordPasskeyUse } from './passkeys.repository';
import { userHandleOf } from './passkeys.service';
import { newCeremony, pendingCeremony, type RelyingParty } from './relying-party';

type Options = { options: PublicKeyCredentialRequestOptionsJSON; ceremony: PasskeyCeremony };

/**
 * Signing in with a passkey: without a password (a discoverable credential with user verification: something
 * the user has, unlocked by something they know or are, so it stands for both factors), or as the second step of
 * a password sign-in on an account with 2FA, in place of the TOTP code. Failures count in the sign-in throttle
 * like wrong passwords and codes.
 */
export class PasskeySignInService {
  constructor(
    private readonly deps: {
      db: Db;
      relyingParty: RelyingParty;
      throttle: SignInThrottle;
      settings: PanelSettings;
      clock: () => Date;
      activity: ActivityLog;
    },
  ) {}

  /** Options for a passwordless sign-in: no credential list, the browser offers the passkeys it holds. */
  async signInOptions(): Promise<Options> {
    const options = await generateAuthenticationOptions({
      rpID: this.deps.relyingParty.id,
      userVerification: 'required',
    });
    return { options, ceremony: newCeremony(options.challenge, 'sign-in', null, this.deps.clock()) };
  }

  /**
   * @returns the account of the passkey that answered the session's sign-in ceremony
   * @throws HttpError 429 while the address (or the account from it) is over its attempts; 400 when the
   *   ceremony expired, the passkey is unknown, or the answer does not verify (bad signature, another origin or
   *   site, no user verification, a counter that did not move forward), or when the panel requires single
   *   sign-on of this user
   */
  async signIn(
    origin: RequestOrigin,
    ceremony: PasskeyCeremony | undefined,
    credential: unknown,
  ): Promise<User> {
    await this.deps.throttle.assertAddressAllowed(origin.ip);
    const pending = pendingCeremony(ceremony, 'sign-in', this.deps.clock());
    const response = credential as AuthenticationResponseJSON;
    const passkey =
      typeof response.id === 'string' ? await findPasskeyByCredential(this.deps.db, response.id) : null;
    const user = passkey ? await findUserById(this.deps.db, passkey.userId) : null;
    const attempt = await this.#admit(
      origin,
      passkey && user ? user : null,
      `passkey:${String(response.id).slice(0, 64)}`,
    );
    if (!passkey || !user) {
      await this.deps.throttle.recordFailure(attempt);
      throw displayError(passkeyMessages.unknown);
    }
    // The browser names the account the passkey was made for: it must be this passkey's owner.
    const handle = response.response?.userHandle;
    const handleMatches =
      typeof handle !== 'string' || safeEqual(handle, isoBase64URL.fromBuffer(userHandleOf(user)));
    if (!handleMatches || !(await this.#verify(passkey, pending, response, true))) {
      await this.#fail(attempt, user, origin);
    }
    await this.deps.throttle.succeeded(attempt);
    // Where the panel requires single sign-on, a passkey no more replaces the provider than a password does.
    await assertSignInWithoutSso(this.deps, user);
    await this.#record('auth:passkey', user, origin);
    return user;
  }

  /**
   * Options for the 2FA step with a passkey: only the pending account's passkeys are offered, and user
   * verification is preferred, not required (the password was the first factor).
   * @throws HttpError 400 when the step expired or the confirmation token is not this session's, or the account
   *   has no passkey
   */
  async checkpointOptions(session: SessionData | undefined, confirmationToken: string): Promise<Options> {
    const userId = this.#pendingCheckpoint(session, confirmationToken);
    const passkeys = await listPasskeys(this.deps.db, userId);
    if (passkeys.length === 0) throw displayError(passkeyMessages.unknown);
    const options = await generateAuthenticationOptions({
      rpID: this.deps.relyingParty.id,
      allowCredentials: passkeys.map((key) => ({ id: key.credentialId, transports: key.transports })),
      userVerification: 'preferred',
    });
    return { options, ceremony: newCeremony(options.challenge, 'checkpoint', userId, this.deps.clock()) };
  }

  /**
   * The 2FA step answered with a passkey of the pending account.
   * @returns the user to sign in
   * @throws HttpError 429 as the TOTP step does; 400 when the step or the ceremony expired, the confirmation token
   *   is not this session's, or the passkey is not the account's or does not verify
   */
  async checkpoint(
    origin: RequestOrigin,
    session: SessionData | undefined,
    input: { confirmationToken: string; credential: unknown },
  ): Promise<User> {
    await this.deps.throttle.assertAddressAllowed(origin.ip);
    const userId = this.#pendingCheckpoint(session, input.confirmationToken);
    const pending = pendingCeremony(session?.passkey, 'checkpoint', this.deps.clock());
    const user = await findUserById(this.deps.db, userId);
    if (!user || pending.userId !== userId) throw displayError(errorMessages.checkpointExpired);
    const attempt = await this.#admit(origin, user, '');
    const response = input.credential as AuthenticationResponseJSON;
    const passkey =
      typeof response.id === 'string' ? await findPasskeyByCredential(this.deps.db, response.id) : null;
    if (!passkey || passkey.userId !== userId || !(await this.#verify(passkey, pending, response, false))) {
      await this.#fail(attempt, user, origin);
    }
    await this.deps.throttle.succeeded(attempt);
    await this.#record('auth:passkey', user, origin);
    return user;
  }

  /** The user id of the session's pending 2FA step, when the confirmation token is that step's. */
  #pendingCheckpoint(session: SessionData | undefined, confirmationToken: string): number {
    const pending = pendingCheckpoint(session, this.deps.clock());
    if (!pending) throw displayError(errorMessages.checkpointExpired);
    if (!safeEqual(sha256(confirmationToken), pending.tokenHash))
      throw displayError(errorMessages.checkpointExpired);
    return pending.userId;
  }

  async #admit(origin: RequestOrigin, user: User | null, unknownName: string): Promise<SignInAttempt> {
    const account = signInAccount(user?.id, unknownName);
    const admission = await this.deps.throttle.admit(origin.ip, account, 'web');
    if (admission.admitted) return admission.attempt;
    if (user && (await this.deps.throttle.shouldLogRefusal(origin.ip, account)))
      await this.#record('auth:throttled', user, origin);
    throw signInLockout(admission.wait);
  }

  async #verify(
    passkey: Passkey,
    ceremony: PasskeyCeremony,
    response: AuthenticationResponseJSON,
    requireUserVerification: boolean,
  ): Promise<boolean> {
    const { relyingParty } = this.deps;
    const verification = await verifyAuthenticationResponse({
      response,
      expectedChallenge: ceremony.challenge,
      expectedOrigin: relyingParty.origin,
      expectedRPID: relyingParty.id,
      requireUserVerification,
      credential: {
        id: passkey.credentialId,
        publicKey: isoBase64URL.toBuffer(passkey.publicKey),
        counter: passkey.counter,
        transports: passkey.transports as never,
      },
    }).catch(() => null);
    if (!verification?.verified) return false;
    return recordPasskeyUse(
      this.deps.db,
      passkey,
      verification.authenticationInfo.newCounter,
      this.deps.clock(),
    );
  }

  async #fail(attempt: SignInAttempt, user: User, origin: RequestOrigin): Promise<never> {
    await this.deps.throttle.recordFailure(attempt);
    await this.#record('auth:fail', user, origin);
    throw displayError(passkeyMessages.notVerified);
  }

  async #record(
    event: 'auth:passkey' | 'auth:fail' | 'auth:throttled',
    user: User,
    origin: RequestOrigin,
  ): Promise<void> {
    await this.deps.activity.record(this.deps.db, {
      event,
      actor: null,
      subjects: { user },
      ip: origin.ip,
      isApi: false,
      properties: { ...requestMetadata(origin), method: 'passkey' },
    });
  }
}

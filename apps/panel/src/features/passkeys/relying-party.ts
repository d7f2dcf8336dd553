import type { PasskeyCeremony } from '@aerie/panel/features/auth/session/session-data';
import { displayError } from '@aerie/panel/http/errors';
import { passkeyLimits, passkeyMessages } from '@aerie/shared/passkeys/passkeys-wire';

/**
 * Who the panel is to an authenticator: the host name of APP_URL (the WebAuthn "RP ID") and the one origin a
 * signed answer may come from. Both come from configuration, never from a request's Host header, so a passkey
 * made for this panel is only ever accepted here. Browsers refuse an IP address as RP ID: passkeys need APP_URL
 * to name a host (`localhost` works for a panel on one's own machine).
 */
export interface RelyingParty {
  id: string;
  origin: string;
}

export function relyingPartyOf(appUrl: string): RelyingParty {
  const url = new URL(appUrl);
  return { id: url.hostname, origin: url.origin };
}

export const newCeremony = (
  challenge: string,
  purpose: PasskeyCeremony['purpose'],
  userId: number | null,
  now: Date,
): PasskeyCeremony => ({
  challenge,
  purpose,
  userId,
  expiresAt: now.getTime() + passkeyLimits.ceremonyTtlMs,
});

/**
 * The session's pending ceremony of this purpose, still valid.
 * @throws HttpError 400 DisplayException "The passkey request expired. Please try again." otherwise
 */
export function pendingCeremony(
  ceremony: PasskeyCeremony | undefined,
  purpose: PasskeyCeremony['purpose'],
  now: Date,
): PasskeyCeremony {
  if (!ceremony || ceremony.purpose !== purpose || ceremony.expiresAt <= now.getTime())
    throw displayError(passkeyMessages.ceremonyExpired);
  return ceremony;
}

/** A WebAuthn challenge handed to this browser, good for one answer (features/passkeys). */
export interface PasskeyCeremony {
  /** base64url, as the browser signs it. */
  challenge: string;
  purpose: 'register' | 'sign-in' | 'checkpoint';
  /** The account it is for: the registering user, or the pending 2FA sign-in's; none for a passwordless sign-in. */
  userId: number | null;
  /** Epoch milliseconds. */
  expiresAt: number;
}

/** What a session remembers besides its user: the pending 2FA step between login and checkpoint, and a pending passkey ceremony. */
/** A sign-in or link through an identity provider, between its redirect and its callback (features/oauth). */
export interface OAuthFlow {
  providerId: number;
  purpose: 'sign-in' | 'link';
  /** The account being linked (purpose `link`): the callback must come back to the same signed-in user. */
  userId: number | null;
  state: string;
  /** OpenID Connect only: what the ID token's `nonce` must be. */
  nonce: string | null;
  /** PKCE (S256). */
  codeVerifier: string;
  /** Epoch milliseconds. */
  expiresAt: number;
}

export interface SessionData {
  /**
   * Single sign-on: the flow under way, and whether a provider sign-in waits for the 2FA step (then
   * GET /auth/oauth/checkpoint hands the web app a confirmation token for `checkpoint`).
   */
  oauth?: { flow?: OAuthFlow; checkpoint?: boolean };
  passkey?: PasskeyCeremony;
  checkpoint?: {
    userId: number;
    /** SHA-256 of the confirmation token handed to the browser. */
    tokenHash: string;
    /** Epoch milliseconds. */
    expiresAt: number;
  };
}

/** The session's pending 2FA step, if one is there and has not expired. */
export function pendingCheckpoint(
  data: SessionData | undefined,
  now: Date,
): NonNullable<SessionData['checkpoint']> | null {
  const pending = data?.checkpoint;
  return pending && pending.expiresAt > now.getTime() ? pending : null;
}

export function parseSessionData(text: string): SessionData {
  try {
    const value = JSON.parse(text) as unknown;
    return typeof value === 'object' && value !== null ? (value as SessionData) : {};
  } catch {
    return {};
  }
}

import { randomAlphanumeric, sha256 } from '@aerie/panel/crypto/tokens';
import { pendingCheckpoint, type SessionData } from '@aerie/panel/features/auth/session/session-data';

/**
 * The confirmation token for a 2FA step a provider sign-in started (the web app asks GET /auth/oauth/checkpoint,
 * so the token never travels in a URL). Only its hash is kept, so each call hands out a fresh one and the last
 * one handed out is the one that works; the step's expiry does not move.
 * @returns the token and the session data to store, or null when no such step is pending (or it expired)
 */
export function reissueCheckpointToken(
  data: SessionData | undefined,
  now: Date,
): { confirmationToken: string; data: SessionData } | null {
  const pending = pendingCheckpoint(data, now);
  if (!data?.oauth?.checkpoint || !pending) return null;
  const confirmationToken = randomAlphanumeric(64);
  return {
    confirmationToken,
    data: { ...data, checkpoint: { ...pending, tokenHash: sha256(confirmationToken) } },
  };
}

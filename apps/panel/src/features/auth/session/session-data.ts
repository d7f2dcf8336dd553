/** What a session remembers besides its user: only the pending 2FA step between login and checkpoint. */
export interface SessionData {
  checkpoint?: {
    userId: number;
    /** SHA-256 of the confirmation token handed to the browser. */
    tokenHash: string;
    /** Epoch milliseconds. */
    expiresAt: number;
  };
}

export function parseSessionData(text: string): SessionData {
  try {
    const value = JSON.parse(text) as unknown;
    return typeof value === 'object' && value !== null ? (value as SessionData) : {};
  } catch {
    return {};
  }
}

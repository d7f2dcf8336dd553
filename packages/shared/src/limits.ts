/** Numbers shared by the panel and the web app. Times are in milliseconds unless named otherwise. */
export const limits = {
  /** Minimum length of a new password. */
  passwordMinLength: 8,
  /** How long the 2FA confirmation token issued by POST /auth/login stays valid. */
  checkpointTokenTtlMs: 5 * 60 * 1000,
  /** Password reset tokens expire after an hour. */
  passwordResetTtlMs: 60 * 60 * 1000,
  /** Panel session lifetime (sliding), 720 minutes like Pterodactyl. */
  sessionTtlMs: 720 * 60 * 1000,
  /** Failed sign-in attempts allowed per IP and per account inside one lockout window. */
  loginAttempts: 5,
  loginLockoutWindowSeconds: 60,
  /**
   * Wrong current passwords allowed per account and address inside one window when a signed-in user changes
   * their email, password or 2FA.
   */
  passwordRecheckAttempts: 5,
  passwordRecheckWindowSeconds: 60,
  /** Request time-out of the SPA's API client. */
  requestTimeoutMs: 20_000,
  /** Modal and page fade. */
  fadeMs: 150,
  /** How long the 'Copied … to clipboard.' toast stays. */
  copyToastMs: 2500,
  /** Translation cache in local storage: 7 days. */
  translationCacheMs: 604_800_000,
  translationCachePrefix: 'pterodactyl_lng__',
} as const;

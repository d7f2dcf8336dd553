/** The error envelope of /api/client and /auth (Pterodactyl's shape: status is a string). */
export interface ApiErrorItem {
  code: string;
  status: string;
  detail: string;
  meta?: { source_field: string; rule: string };
}

export interface ApiErrorBody {
  errors: ApiErrorItem[];
}

/** Fixed messages the panel answers with; clients and tests match on them. */
export const errorMessages = {
  unauthenticated: 'Unauthenticated.',
  csrfMismatch: 'CSRF token mismatch.',
  notFound: 'The requested resource could not be found on the server.',
  serverError: 'An unexpected error was encountered while processing this request, please try again.',
  diskFull: 'The panel cannot save this right now: its disk is full. Please try again later.',
  databaseUnavailable: 'The panel cannot reach its database right now. Please try again in a moment.',
  overloaded: 'The panel is too busy to take this request right now. Please try again in a moment.',
  tooManyRequests: 'Too Many Attempts.',
  malformedJson: 'The JSON data passed in the request appears to be malformed: ',
  loginFailed: 'No account matching those credentials could be found.',
  loginLockout: (seconds: number) => `Too many login attempts. Please try again in ${seconds} seconds.`,
  checkpointExpired: 'The authentication token provided has expired, please refresh the page and try again.',
  checkpointInvalidCode: 'The two-factor authentication token was invalid.',
  checkpointInvalidRecovery: 'The recovery token provided is not valid.',
  resetLinkSent: 'We have e-mailed your password reset link!',
  resetTokenInvalid: 'This password reset token is invalid.',
  captchaFailed: 'Failed to validate reCAPTCHA data.',
  twoFactorRequired:
    'Two-factor authentication is required on this account in order to access this endpoint.',
} as const;

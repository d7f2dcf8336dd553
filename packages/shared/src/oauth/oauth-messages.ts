/** Messages of single sign-on, for the API's answers and the pages. */
export const oauthMessages = {
  /** POST /auth/login with a password while the panel requires single sign-on (root admins excepted). */
  ssoRequired: 'This panel requires signing in with single sign-on.',
  /** Unlinking the only way into an account that has no password. */
  lastWayIn:
    'This is the only way to sign in to your account: set a password (use "Forgot password" on the sign-in page) or link another provider first.',
  notLinked: 'Your account is not linked to this provider.',
  /** Providers decide who may sign in: an admin's session or account key only. */
  notByApplicationKey:
    "Sign-in providers cannot be read or changed with an application API key; use an administrator's session or account API key.",
  /** The account's sign-in methods are changed from the panel's own pages, never with an API key. */
  sessionOnly: 'Sign-in providers can only be linked and unlinked from the panel itself.',
  /** An issuer on a loopback, private or link-local address, or plain http to a host not allowed for it. */
  issuerNotAllowed:
    'The issuer must be an https:// URL on a public address (AERIE_OUTBOUND_ALLOW opens others, and plain http to them).',
} as const;

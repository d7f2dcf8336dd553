import type { SsoErrorCode } from '@aerie/shared/oauth/oauth-wire';

/**
 * A provider sign-in or link that must not go on: the browser is sent back with `sso_error=<code>`, and `reason`
 * (never shown to the user) goes to the panel's log.
 */
export class OAuthFailure extends Error {
  override name = 'OAuthFailure';

  constructor(
    readonly code: SsoErrorCode,
    reason: string,
    options?: { cause?: unknown },
  ) {
    super(reason, options);
  }
}

/**
 * Wire shapes and fixed messages of the account API (`/api/client/account/*` but its API keys, `/api/client/permissions`), as the
 * panel answers and the web app reads them. Shapes follow Pterodactyl's client API (reference §4.2, §4.3, §6).
 */

/** Messages of the account API; clients and tests match on them. */
export const accountErrorMessages = {
  invalidPassword: 'The password provided was invalid for this account.',
  twoFactorPasswordInvalid: 'The password provided was not valid.',
  twoFactorTokenInvalid: 'The provided two-factor authentication token was not valid.',
  twoFactorAlreadyEnabled: 'Two-factor authentication is already enabled on this account.',
} as const;

export interface TwoFactorSetupResponse {
  data: {
    /** `otpauth://totp/<AppName>:<email>?secret=<SECRET>&issuer=<AppName>`, to render as a QR code. */
    image_url_data: string;
    /** 32 base32 characters. */
    secret: string;
  };
}

/** POST /api/client/account/two-factor: ten single-use recovery tokens, shown this once. */
export interface RecoveryTokensResponse {
  object: 'recovery_tokens';
  attributes: { tokens: string[] };
}

/** Request bodies. */
export interface UpdateEmailBody {
  email: string;
  password: string;
}

export interface UpdateLanguageBody {
  language: string;
}

export interface UpdatePasswordBody {
  current_password: string;
  password: string;
  password_confirmation: string;
}

export interface EnableTwoFactorBody {
  code: string;
  password: string;
}

/** Values of the panel setting `2fa_required` (and env APP_2FA_REQUIRED). */
export const twoFactorRequirement = { none: 0, admins: 1, everyone: 2 } as const;
export type TwoFactorRequirement = (typeof twoFactorRequirement)[keyof typeof twoFactorRequirement];

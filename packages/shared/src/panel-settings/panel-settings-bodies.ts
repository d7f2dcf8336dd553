import { z } from 'zod';
import { type Language, languages } from '../languages/languages';
import { laravelBoolean, nullableText, requiredInteger } from '../validation/laravel-fields';
import type { LaravelRule } from '../validation/laravel-messages';
import { requiredString, rule } from '../validation/rules';

/** Who must have two-factor authentication: 0 nobody, 1 root admins, 2 everyone. */
export const twoFactorLevels = [0, 1, 2] as const;

export const panelSettingsLimits = {
  appNameMax: 191,
  mailFromMax: 191,
  mailUrlMax: 2048,
  keyMax: 191,
} as const;

/** An `smtp://` or `smtps://` URL with a host (nodemailer's connection URL). */
export const isSmtpUrl = (value: string): boolean => {
  if (!/^smtps?:\/\//i.test(value) || !URL.canParse(value)) return false;
  return new URL(value).hostname !== '';
};

/**
 * PATCH /api/application/settings: every field optional (absent = unchanged). `mail_url` null or empty switches
 * to the file outbox (DATA_DIR/mail/*.eml); `recaptcha_secret_key` null or empty keeps the stored one. Turning
 * reCAPTCHA on needs a site key and a secret key (sent or stored), checked by the panel after these rules.
 */
export const panelSettingsBodySchema = z.object({
  app_name: requiredString().max(panelSettingsLimits.appNameMax, rule('max')).optional(),
  '2fa_required': requiredInteger({ min: 0, max: 2 }).optional(),
  mail_url: z
    .string({ error: 'string' satisfies LaravelRule })
    .max(panelSettingsLimits.mailUrlMax, rule('max'))
    .refine(isSmtpUrl, rule('regex'))
    .nullish(),
  mail_from: requiredString().max(panelSettingsLimits.mailFromMax, rule('max')).optional(),
  recaptcha_enabled: laravelBoolean().optional(),
  recaptcha_site_key: nullableText(panelSettingsLimits.keyMax),
  recaptcha_secret_key: nullableText(panelSettingsLimits.keyMax),
  default_language: z.enum(languages, { error: 'in' satisfies LaravelRule }).optional(),
  allocations_enabled: laravelBoolean().optional(),
  allocations_range_start: requiredInteger({ min: 1024, max: 65535 }).optional(),
  allocations_range_end: requiredInteger({ min: 1024, max: 65535 }).optional(),
  /** Everyone but root admins must sign in through an identity provider (password sign-ins refused). */
  sso_required: laravelBoolean().optional(),
});

export type PanelSettingsBody = z.output<typeof panelSettingsBodySchema>;

/** `panel_settings` item of GET/PATCH /api/application/settings: the effective values (stored, else the environment's). */
export interface PanelSettingsAttributes {
  app_name: string;
  '2fa_required': 0 | 1 | 2;
  /** Empty: mail is written to DATA_DIR/mail as .eml files. */
  mail_url: string;
  mail_from: string;
  recaptcha_enabled: boolean;
  recaptcha_site_key: string;
  /** The secret itself is never returned. */
  recaptcha_secret_key_set: boolean;
  default_language: Language;
  /** Whether users may add allocations to their servers themselves (Network page, "Create Allocation"). */
  allocations_enabled: boolean;
  /** The ports such an allocation is taken from, inclusive. */
  allocations_range_start: number;
  allocations_range_end: number;
  /** Password sign-ins refused to everyone but root admins: they sign in through an identity provider. */
  sso_required: boolean;
}

export const panelSettingsMessages = {
  testMailSubject: (appName: string) => `${appName}: Test Message`,
  testMailText: (appName: string) =>
    `This is a test of the ${appName} mail system. If you can read this, mail is set up correctly.`,
  testMailFailed: (message: string) => `The test mail could not be sent: ${message}`,
  allocationsRange: 'The allocation range must start at or below the port it ends at.',
} as const;

import { z } from 'zod';
import { isSmtpUrl, panelLanguages, panelSettingsLimits } from './panel-settings-bodies';

/** What the admin settings form checks before sending (the API's own rules are in panel-settings-bodies.ts). */
export const panelSettingsFormMessages = {
  appNameRequired: 'A product name is required.',
  appNameMax: `The product name may not be greater than ${panelSettingsLimits.appNameMax} characters.`,
  mailUrl: 'Enter an smtp:// or smtps:// URL, or leave it blank to write mail to files.',
  mailFromRequired: 'A sender address is required.',
  mailFromMax: `The sender may not be greater than ${panelSettingsLimits.mailFromMax} characters.`,
  siteKeyRequired: 'A site key is required to turn reCAPTCHA on.',
  keyMax: `Keys may not be greater than ${panelSettingsLimits.keyMax} characters.`,
} as const;

const m = panelSettingsFormMessages;

export const panelSettingsFormSchema = z
  .object({
    appName: z
      .string()
      .trim()
      .min(1, { error: m.appNameRequired, abort: true })
      .max(panelSettingsLimits.appNameMax, m.appNameMax),
    twoFactorRequired: z.enum(['0', '1', '2']),
    mailUrl: z
      .string()
      .trim()
      .refine((value) => value === '' || isSmtpUrl(value), m.mailUrl),
    mailFrom: z
      .string()
      .trim()
      .min(1, { error: m.mailFromRequired, abort: true })
      .max(panelSettingsLimits.mailFromMax, m.mailFromMax),
    recaptchaEnabled: z.boolean(),
    recaptchaSiteKey: z.string().trim().max(panelSettingsLimits.keyMax, m.keyMax),
    recaptchaSecretKey: z.string().trim().max(panelSettingsLimits.keyMax, m.keyMax),
    defaultLanguage: z.enum(panelLanguages),
  })
  .superRefine((values, ctx) => {
    if (values.recaptchaEnabled && values.recaptchaSiteKey === '')
      ctx.addIssue({ code: 'custom', path: ['recaptchaSiteKey'], message: m.siteKeyRequired });
  });

export type PanelSettingsFormValues = z.infer<typeof panelSettingsFormSchema>;

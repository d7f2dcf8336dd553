import { z } from 'zod';
import { languages } from '../languages/languages';
import { isSmtpUrl, panelSettingsLimits, panelSettingsMessages } from './panel-settings-bodies';

/** Ports users' own allocations may be taken from (the API's bounds of `allocations_range_*`). */
export const allocationPortBounds = { min: 1024, max: 65535 } as const;

/** What the admin settings form checks before sending (the API's own rules are in panel-settings-bodies.ts). */
export const panelSettingsFormMessages = {
  appNameRequired: 'A product name is required.',
  appNameMax: `The product name may not be greater than ${panelSettingsLimits.appNameMax} characters.`,
  mailUrl: 'Enter an smtp:// or smtps:// URL, or leave it blank to write mail to files.',
  mailFromRequired: 'A sender address is required.',
  mailFromMax: `The sender may not be greater than ${panelSettingsLimits.mailFromMax} characters.`,
  siteKeyRequired: 'A site key is required to turn reCAPTCHA on.',
  keyMax: `Keys may not be greater than ${panelSettingsLimits.keyMax} characters.`,
  portRequired: 'A port is required.',
  portRange: `Ports must be whole numbers from ${allocationPortBounds.min} to ${allocationPortBounds.max}.`,
  allocationsRange: panelSettingsMessages.allocationsRange,
} as const;

const m = panelSettingsFormMessages;

const PORT = /^\d{1,5}$/;
const isPort = (value: string) =>
  PORT.test(value) && Number(value) >= allocationPortBounds.min && Number(value) <= allocationPortBounds.max;

/** A port as typed in a text box (sent as a number). */
const portField = () =>
  z.string().trim().min(1, { error: m.portRequired, abort: true }).refine(isPort, m.portRange);

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
    defaultLanguage: z.enum(languages),
    allocationsEnabled: z.boolean(),
    allocationsRangeStart: portField(),
    allocationsRangeEnd: portField(),
  })
  .superRefine((values, ctx) => {
    if (values.recaptchaEnabled && values.recaptchaSiteKey === '')
      ctx.addIssue({ code: 'custom', path: ['recaptchaSiteKey'], message: m.siteKeyRequired });
  })
  .superRefine(
    ({ allocationsRangeStart: start, allocationsRangeEnd: end }, ctx) => {
      if (isPort(start) && isPort(end) && Number(end) < Number(start))
        ctx.addIssue({ code: 'custom', path: ['allocationsRangeEnd'], message: m.allocationsRange });
    },
    // Checked even while another field is invalid, so a reversed range shows with the other errors.
    { when: () => true },
  );

export type PanelSettingsFormValues = z.infer<typeof panelSettingsFormSchema>;

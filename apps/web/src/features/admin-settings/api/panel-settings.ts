import type { Language } from '@aerie/shared/languages/languages';
import type {
  PanelSettingsAttributes,
  PanelSettingsBody,
} from '@aerie/shared/panel-settings/panel-settings-bodies';
import { queryOptions } from '@tanstack/react-query';
import { apiClient } from '@/lib/api-client';
import type { ApplicationItem } from '@/lib/application-api';

/** The panel settings as the admin area shows them (GET /api/application/settings). */
export interface PanelSettings {
  appName: string;
  twoFactorRequired: 0 | 1 | 2;
  /** Empty: mails are written as files into the panel's data directory. */
  mailUrl: string;
  mailFrom: string;
  recaptchaEnabled: boolean;
  recaptchaSiteKey: string;
  /** The secret itself never leaves the panel. */
  recaptchaSecretKeySet: boolean;
  defaultLanguage: Language;
  /** Users may add allocations to their servers themselves (the Network page's Create Allocation). */
  allocationsEnabled: boolean;
  /** The ports those allocations are taken from, inclusive. */
  allocationsRangeStart: number;
  allocationsRangeEnd: number;
  /** Everyone but root admins signs in through an enabled identity provider (no password sign-ins). */
  ssoRequired: boolean;
}

const toPanelSettings = (attributes: PanelSettingsAttributes): PanelSettings => ({
  appName: attributes.app_name,
  twoFactorRequired: attributes['2fa_required'],
  mailUrl: attributes.mail_url,
  mailFrom: attributes.mail_from,
  recaptchaEnabled: attributes.recaptcha_enabled,
  recaptchaSiteKey: attributes.recaptcha_site_key,
  recaptchaSecretKeySet: attributes.recaptcha_secret_key_set,
  defaultLanguage: attributes.default_language,
  allocationsEnabled: attributes.allocations_enabled,
  allocationsRangeStart: attributes.allocations_range_start,
  allocationsRangeEnd: attributes.allocations_range_end,
  ssoRequired: attributes.sso_required === true,
});

export const panelSettingsKeys = { all: ['admin', 'settings'] as const };

/** GET /api/application/settings */
export async function getPanelSettings(signal?: AbortSignal): Promise<PanelSettings> {
  const { attributes } = await apiClient.get<ApplicationItem<PanelSettingsAttributes>>(
    '/api/application/settings',
    { signal },
  );
  return toPanelSettings(attributes);
}

/** PATCH /api/application/settings: the fields sent change, an empty reCAPTCHA secret keeps the saved one. */
export async function updatePanelSettings(body: PanelSettingsBody): Promise<PanelSettings> {
  const { attributes } = await apiClient.patch<ApplicationItem<PanelSettingsAttributes>>(
    '/api/application/settings',
    body,
  );
  return toPanelSettings(attributes);
}

/** POST /api/application/settings/mail/test: a mail to the signed-in admin through the saved mail settings. */
export async function sendTestMail(): Promise<void> {
  await apiClient.post('/api/application/settings/mail/test');
}

export const panelSettingsQueryOptions = () =>
  queryOptions({ queryKey: panelSettingsKeys.all, queryFn: ({ signal }) => getPanelSettings(signal) });

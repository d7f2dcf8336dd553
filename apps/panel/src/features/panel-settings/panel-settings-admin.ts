import type { Audit } from '@aerie/panel/features/audit/audit-log';
import { displayError, validationFailed } from '@aerie/panel/http/errors';
import { fieldRuleFailed } from '@aerie/panel/http/validate';
import type { Mailer } from '@aerie/panel/mail/mailer';
import {
  type PanelSettingsAttributes,
  type PanelSettingsBody,
  panelSettingsMessages,
} from '@aerie/shared/panel-settings/panel-settings-bodies';
import { toValidationErrors } from '@aerie/shared/validation/validation-errors';
import {
  type PanelSettings,
  SETTING_2FA_REQUIRED,
  SETTING_ALLOCATIONS_ENABLED,
  SETTING_ALLOCATIONS_RANGE_END,
  SETTING_ALLOCATIONS_RANGE_START,
  SETTING_APP_NAME,
  SETTING_DEFAULT_LANGUAGE,
  SETTING_MAIL_FROM,
  SETTING_MAIL_URL,
  SETTING_RECAPTCHA_ENABLED,
  SETTING_RECAPTCHA_SECRET_KEY,
  SETTING_RECAPTCHA_SITE_KEY,
  SETTING_SSO_REQUIRED,
} from './panel-settings';

/** What the SMTP password of the mail URL reads as in answers: the password itself never leaves the panel. */
export const MASKED_PASSWORD = '********';

function maskPassword(url: string): string {
  try {
    const parsed = new URL(url);
    if (!parsed.password) return url;
    parsed.password = MASKED_PASSWORD;
    return parsed.toString();
  } catch {
    return url;
  }
}

/** The password of a mail URL ('' for none, or an unreadable URL). */
function passwordOf(url: string | undefined): string {
  try {
    return url ? new URL(url).password : '';
  } catch {
    return '';
  }
}

/** A URL sent back with the masked password keeps the stored one; any other password replaces it. */
function keepMaskedPassword(sent: string, stored: string): string {
  try {
    const parsed = new URL(sent);
    if (decodeURIComponent(parsed.password) !== MASKED_PASSWORD) return sent;
    parsed.password = stored ? new URL(stored).password : '';
    return parsed.toString();
  } catch {
    return sent;
  }
}

/** The effective values; the SMTP password masked, the reCAPTCHA secret only as whether one is set. */
async function viewOf(settings: PanelSettings): Promise<PanelSettingsAttributes> {
  const mail = await settings.mail();
  const recaptcha = await settings.recaptcha();
  const allocations = await settings.clientAllocations();
  return {
    app_name: await settings.appName(),
    '2fa_required': await settings.twoFactorRequired(),
    mail_url: maskPassword(mail.url ?? ''),
    mail_from: mail.from,
    recaptcha_enabled: recaptcha.enabled,
    recaptcha_site_key: recaptcha.siteKey,
    recaptcha_secret_key_set: recaptcha.secretKey !== '',
    default_language: await settings.defaultLanguage(),
    allocations_enabled: allocations.enabled,
    allocations_range_start: allocations.rangeStart,
    allocations_range_end: allocations.rangeEnd,
    sso_required: await settings.ssoRequired(),
  };
}

/**
 * @throws HttpError 422 when reCAPTCHA would be on without a site key or a secret key, or the allocation range
 *   would end below its start
 */
async function assertConsistent(settings: PanelSettings, body: PanelSettingsBody): Promise<void> {
  const range = await settings.clientAllocations();
  const rangeStart = body.allocations_range_start ?? range.rangeStart;
  if (rangeStart > (body.allocations_range_end ?? range.rangeEnd)) {
    throw validationFailed(
      toValidationErrors([
        { path: ['allocations_range_end'], message: 'gte', params: { value: rangeStart, numeric: true } },
      ]),
    );
  }
  const current = await settings.recaptcha();
  const enabled = body.recaptcha_enabled ?? current.enabled;
  if (enabled) {
    const siteKey = body.recaptcha_site_key !== undefined ? (body.recaptcha_site_key ?? '') : current.siteKey;
    if (!siteKey) throw fieldRuleFailed('recaptcha_site_key', 'required');
    if (!body.recaptcha_secret_key && !current.secretKey)
      throw fieldRuleFailed('recaptcha_secret_key', 'required');
  }
}

/** The stored values the fields sent become. */
async function valuesOf(settings: PanelSettings, body: PanelSettingsBody): Promise<Record<string, string>> {
  const values: Record<string, string> = {};
  if (body.app_name !== undefined) values[SETTING_APP_NAME] = body.app_name;
  if (body['2fa_required'] !== undefined) values[SETTING_2FA_REQUIRED] = String(body['2fa_required']);
  if (body.mail_url !== undefined) {
    values[SETTING_MAIL_URL] = keepMaskedPassword(body.mail_url ?? '', (await settings.mail()).url ?? '');
  }
  if (body.mail_from !== undefined) values[SETTING_MAIL_FROM] = body.mail_from;
  if (body.recaptcha_enabled !== undefined)
    values[SETTING_RECAPTCHA_ENABLED] = body.recaptcha_enabled ? '1' : '0';
  if (body.recaptcha_site_key !== undefined)
    values[SETTING_RECAPTCHA_SITE_KEY] = body.recaptcha_site_key ?? '';
  if (body.recaptcha_secret_key) values[SETTING_RECAPTCHA_SECRET_KEY] = body.recaptcha_secret_key;
  if (body.default_language !== undefined) values[SETTING_DEFAULT_LANGUAGE] = body.default_language;
  if (body.allocations_enabled !== undefined)
    values[SETTING_ALLOCATIONS_ENABLED] = body.allocations_enabled ? '1' : '0';
  if (body.allocations_range_start !== undefined)
    values[SETTING_ALLOCATIONS_RANGE_START] = String(body.allocations_range_start);
  if (body.allocations_range_end !== undefined)
    values[SETTING_ALLOCATIONS_RANGE_END] = String(body.allocations_range_end);
  if (body.sso_required !== undefined) values[SETTING_SSO_REQUIRED] = body.sso_required ? '1' : '0';
  return values;
}

/** Reads and changes the panel settings for /api/application/settings, and sends the test mail. */
export class PanelSettingsAdmin {
  constructor(private readonly deps: { settings: PanelSettings; mailer: Mailer }) {}

  /** The effective values; the SMTP password masked, the reCAPTCHA secret only as whether one is set. */
  view(): Promise<PanelSettingsAttributes> {
    return viewOf(this.deps.settings);
  }

  /**
   * Stores the fields sent (all at once), in one transaction with its audit entry (subject id null: there is one
   * set of settings). An empty mail URL selects the file outbox; an empty reCAPTCHA secret keeps the stored one.
   * A new SMTP password or reCAPTCHA secret shows in the entry as `"[redacted]"`, never in clear.
   * @throws HttpError 422 when reCAPTCHA would be on without a site key or a secret key, or the allocation
   *   range would end below its start
   */
  update(body: PanelSettingsBody, audit: Audit<PanelSettingsAttributes>): Promise<PanelSettingsAttributes> {
    return this.deps.settings.transaction(async (settings, tx) => {
      const before = await viewOf(settings);
      const mailBefore = (await settings.mail()).url;
      await assertConsistent(settings, body);
      await settings.setMany(await valuesOf(settings, body));
      const after = await viewOf(settings);
      const secretsSet = [
        ...(passwordOf((await settings.mail()).url) !== passwordOf(mailBefore) ? ['mail_password'] : []),
        ...(body.recaptcha_secret_key ? ['recaptcha_secret_key'] : []),
      ];
      await audit(tx, { subjectId: null, before, after, secretsSet });
      return after;
    });
  }

  /**
   * Sends a test message to `to` through the current transport and waits for it.
   * @throws HttpError 400 DisplayException with the transport's error
   */
  async sendTestMail(to: string): Promise<void> {
    const appName = await this.deps.settings.appName();
    const text = panelSettingsMessages.testMailText(appName);
    try {
      await this.deps.mailer.send({
        to,
        subject: panelSettingsMessages.testMailSubject(appName),
        text,
        html: `<p>${text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)}</p>`,
      });
    } catch (error) {
      throw displayError(
        panelSettingsMessages.testMailFailed(error instanceof Error ? error.message : String(error)),
      );
    }
  }
}

import type { RecaptchaSettings } from '@aerie/panel/features/panel-settings/panel-settings';
import { HttpError } from '@aerie/panel/http/errors';
import type { Log } from '@aerie/panel/logging/log';
import { errorMessages } from '@aerie/shared/errors/error-envelope';

const captchaFailed = () => new HttpError(400, 'HttpException', errorMessages.captchaFailed);

/**
 * Verifies `g-recaptcha-response` with the siteverify endpoint when reCAPTCHA is enabled. Whether it is, and the
 * secret key, are read on every check (the panel settings, with the environment as default).
 * @throws HttpError 400 "Failed to validate reCAPTCHA data." when missing, refused, or the check cannot be made
 */
export class RecaptchaVerifier {
  constructor(
    private readonly deps: {
      settings: () => Promise<RecaptchaSettings>;
      verifyUrl: string;
      log: Log;
    },
  ) {}

  async assertHuman(response: unknown, ip: string): Promise<void> {
    const { enabled, secretKey } = await this.deps.settings();
    if (!enabled) return;
    if (typeof response !== 'string' || response.trim() === '') throw captchaFailed();
    try {
      const answer = await fetch(this.deps.verifyUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ secret: secretKey, response, remoteip: ip }),
        signal: AbortSignal.timeout(10_000),
      });
      const body = (await answer.json()) as { success?: unknown };
      if (answer.ok && body.success === true) return;
    } catch (error) {
      this.deps.log.warn({ err: error }, 'reCAPTCHA verification could not be made');
    }
    throw captchaFailed();
  }
}

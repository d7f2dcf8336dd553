import type { Config } from '@aerie/panel/config/load-config';
import { HttpError } from '@aerie/panel/http/errors';
import type { Log } from '@aerie/panel/logging/log';
import { errorMessages } from '@aerie/shared/errors/error-envelope';

const captchaFailed = () => new HttpError(400, 'HttpException', errorMessages.captchaFailed);

/**
 * Verifies `g-recaptcha-response` with the siteverify endpoint when reCAPTCHA is enabled.
 * @throws HttpError 400 "Failed to validate reCAPTCHA data." when missing, refused, or the check cannot be made
 */
export class RecaptchaVerifier {
  constructor(
    private readonly config: Config['recaptcha'],
    private readonly log: Log,
  ) {}

  get enabled() {
    return this.config.enabled;
  }

  async assertHuman(response: unknown, ip: string): Promise<void> {
    if (!this.config.enabled) return;
    if (typeof response !== 'string' || response.trim() === '') throw captchaFailed();
    try {
      const answer = await fetch(this.config.verifyUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ secret: this.config.secretKey, response, remoteip: ip }),
        signal: AbortSignal.timeout(10_000),
      });
      const body = (await answer.json()) as { success?: unknown };
      if (answer.ok && body.success === true) return;
    } catch (error) {
      this.log.warn({ err: error }, 'reCAPTCHA verification could not be made');
    }
    throw captchaFailed();
  }
}

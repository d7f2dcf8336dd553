import type { ReadCallback } from 'i18next';
import HttpBackend from 'i18next-http-backend';

/** Same schedule as i18next's own retries: up to 5 more tries, waiting 350 ms, then twice as long each time. */
export const translationRetry = { attempts: 5, firstDelayMs: 350 };

/**
 * The HTTP backend already tells a retryable failure (network, 5xx) from a final one (4xx, bad JSON), but the
 * chained backend drops that flag. This backend acts on it itself, so 5xx answers are retried and 4xx are not.
 */
export class RetryingHttpBackend extends HttpBackend {
  override read(language: string, namespace: string, callback: ReadCallback): void {
    const attempt = (tried: number) => {
      super.read(language, namespace, (error, dataOrRetry) => {
        if (error && dataOrRetry === true && tried < translationRetry.attempts) {
          setTimeout(() => attempt(tried + 1), translationRetry.firstDelayMs * 2 ** tried);
          return;
        }
        callback(error, error ? false : dataOrRetry);
      });
    };
    attempt(0);
  }
}

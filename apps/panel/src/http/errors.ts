import { type ApiErrorItem, errorMessages } from '@aerie/shared/errors/error-envelope';

/**
 * An error that reaches the client as the reference envelope. `code` is the Pterodactyl exception name clients
 * key on; `items` carries several entries at once (validation).
 */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    readonly detail: string,
    readonly options: { items?: ApiErrorItem[]; headers?: Record<string, string> } = {},
  ) {
    super(detail);
    this.name = 'HttpError';
  }

  toItems(): ApiErrorItem[] {
    return this.options.items ?? [{ code: this.code, status: String(this.statusCode), detail: this.detail }];
  }
}

export const notFound = (detail: string = errorMessages.notFound) =>
  new HttpError(404, 'NotFoundHttpException', detail);

export const unauthenticated = () =>
  new HttpError(401, 'AuthenticationException', errorMessages.unauthenticated);

/**
 * A write the database (or the data directory) could not store for lack of disk space: 507 Insufficient Storage.
 * Nothing was saved, and the same request succeeds once space is freed, without a restart.
 */
/** 403 as Laravel's AuthorizationException renders it (the code Pterodactyl clients check). */
export const forbidden = (detail: string) => new HttpError(403, 'AccessDeniedHttpException', detail);

export const diskFull = () => new HttpError(507, 'HttpException', errorMessages.diskFull);

export const databaseUnavailable = () =>
  new HttpError(503, 'HttpException', errorMessages.databaseUnavailable, { headers: { 'retry-after': '5' } });

/** Admission control's refusal (http/admission.ts): before any work, with when to try again. */
export const overloaded = (retryAfterSeconds: number) =>
  new HttpError(503, 'ServiceUnavailableHttpException', errorMessages.overloaded, {
    headers: { 'retry-after': String(retryAfterSeconds) },
  });

export const csrfMismatch = () => new HttpError(419, 'HttpException', errorMessages.csrfMismatch);

/** A business rule refused the request (Pterodactyl's DisplayException, HTTP 400). */
export const displayError = (detail: string) => new HttpError(400, 'DisplayException', detail);

export const badRequest = (detail: string) => new HttpError(400, 'BadRequestHttpException', detail);

export const validationFailed = (items: ApiErrorItem[]) =>
  new HttpError(422, 'ValidationException', items[0]?.detail ?? 'The given data was invalid.', { items });

/** Rate limit hit: 429 with Retry-After and the X-RateLimit-* headers Laravel's throttle sends. */
export function tooManyRequests(retryAfterSeconds: number, limit: number): HttpError {
  return new HttpError(429, 'TooManyRequestsHttpException', errorMessages.tooManyRequests, {
    headers: rateLimitHeaders(retryAfterSeconds, limit),
  });
}

/** Login lockout: Laravel reports it as a ValidationException on `email` with status 429. */
export function loginLockout(retryAfterSeconds: number, limit: number): HttpError {
  const detail = errorMessages.loginLockout(retryAfterSeconds);
  return new HttpError(429, 'ValidationException', detail, {
    items: [
      { code: 'ValidationException', status: '429', detail, meta: { source_field: 'email', rule: '' } },
    ],
    headers: rateLimitHeaders(retryAfterSeconds, limit),
  });
}

function rateLimitHeaders(retryAfterSeconds: number, limit: number): Record<string, string> {
  return {
    'retry-after': String(retryAfterSeconds),
    'x-ratelimit-limit': String(limit),
    'x-ratelimit-remaining': '0',
    'x-ratelimit-reset': String(Math.ceil(Date.now() / 1000) + retryAfterSeconds),
  };
}

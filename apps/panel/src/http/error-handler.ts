import { isDatabaseUnavailable } from '@aerie/panel/db/database-unavailable';
import { isDiskFull } from '@aerie/panel/db/disk-full';
import { errorMessages } from '@aerie/shared/errors/error-envelope';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { csrfMismatch, databaseUnavailable, diskFull, HttpError, notFound } from './errors';

/** Exception names for statuses raised by Fastify itself (bad bodies, wrong methods…). */
const codeForStatus: Record<number, string> = {
  400: 'BadRequestHttpException',
  401: 'AuthenticationException',
  403: 'AccessDeniedHttpException',
  404: 'NotFoundHttpException',
  405: 'MethodNotAllowedHttpException',
  406: 'NotAcceptableHttpException',
  413: 'PostTooLargeException',
  415: 'UnsupportedMediaTypeHttpException',
  429: 'TooManyRequestsHttpException',
};

function toHttpError(error: FastifyError): HttpError {
  if (error instanceof HttpError) return error;
  if (error.code === 'FST_CSRF_MISSING_SECRET' || error.code === 'FST_CSRF_INVALID_TOKEN')
    return csrfMismatch();
  const status = error.statusCode ?? 500;
  if (status >= 400 && status < 500) {
    return new HttpError(status, codeForStatus[status] ?? 'HttpException', error.message);
  }
  return new HttpError(500, 'HttpException', errorMessages.serverError);
}

/**
 * One line, no stack: which request, what did not happen, and the driver's own words
 * (`POST /auth/login refused, the disk is full (SQLITE_FULL: database or disk is full)`).
 */
export function logDiskFull(request: FastifyRequest, error: unknown, what = 'refused'): void {
  const { code, message } = error as { code?: unknown; message?: unknown };
  request.log.warn(
    `${request.method} ${request.url.split('?')[0]} ${what}, the disk is full (${String(code)}: ${String(message)})`,
  );
}

/** A page a browser asked for (not the API): it gets a plain HTML sentence, not JSON, when the panel cannot serve. */
const wantsPage = (request: FastifyRequest) =>
  request.method === 'GET' &&
  !request.url.startsWith('/api/') &&
  String(request.headers.accept ?? '').includes('text/html');

function sendPage(reply: FastifyReply, error: HttpError) {
  const text = error.message.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
  return reply
    .status(error.statusCode)
    .headers(error.options.headers ?? {})
    .type('text/html; charset=utf-8')
    .send(
      `<!doctype html><html lang="en"><meta charset="utf-8"><title>${text}</title><p>${text}</p></html>\n`,
    );
}

/** Answers with `error` in the envelope, without the error handler (admission control's refusals). */
export function sendError(reply: FastifyReply, error: HttpError) {
  return reply
    .status(error.statusCode)
    .headers(error.options.headers ?? {})
    .type('application/json; charset=utf-8')
    .send({ errors: error.toItems() });
}

/**
 * One place turns every failure into the reference envelope `{errors:[{code,status,detail}]}`: our HttpErrors,
 * Fastify's own 4xx errors, CSRF refusals (419), unknown routes (404), a write refused for lack of disk space
 * (507, one warning line: a full disk is the operator's to fix, not a bug with a stack to read) and anything
 * unexpected (500, logged, with a generic message so internals never leak).
 */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    if (!(error instanceof HttpError) && isDiskFull(error)) {
      logDiskFull(request, error);
      return sendError(reply, diskFull());
    }
    if (!(error instanceof HttpError) && isDatabaseUnavailable(error)) {
      // One line, no stack: the database is down, not a bug; sessions and data are intact and it passes.
      const { code, message } = error as { code?: unknown; message?: unknown };
      request.log.warn(
        `${request.method} ${request.url.split('?')[0]} refused, the database cannot be reached (${String(code)}: ${String(message)})`,
      );
      return wantsPage(request)
        ? sendPage(reply, databaseUnavailable())
        : sendError(reply, databaseUnavailable());
    }
    const httpError = toHttpError(error);
    if (httpError.statusCode >= 500) request.log.error({ err: error }, 'request failed');
    return sendError(reply, httpError);
  });

  app.setNotFoundHandler((_request, reply) => sendError(reply, notFound()));
}

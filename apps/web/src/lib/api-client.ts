import { REQUESTED_WITH_VALUE } from '@aerie/shared/boot/page-globals';
import { type ApiErrorBody, errorMessages } from '@aerie/shared/errors/error-envelope';
import { limits } from '@aerie/shared/limits';
import { readCsrfToken } from '@/lib/page-globals';

/** Shown when neither an error envelope nor an `error` string explains what went wrong. */
export const genericErrorMessage = errorMessages.serverError;

/** Every failed call ends in one of these: the HTTP status (0 when no answer came), a code and a message for people. */
export class ApiError extends Error {
  override readonly name = 'ApiError';

  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly body?: unknown,
  ) {
    super(message);
  }
}

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
export type QueryParams = Record<string, string | number | boolean | null | undefined>;

export interface RequestOptions {
  params?: QueryParams;
  body?: unknown;
  /** Sent as is, as text/plain, instead of a JSON body (file contents). */
  rawBody?: string;
  signal?: AbortSignal;
  /** This call's time-out instead of the client's (archive work runs longer than the 20 s default). */
  timeoutMs?: number;
  /** Hands back a successful answer's text as is instead of parsing JSON (file contents). */
  raw?: boolean;
  /** How many more tries a read gets (default {@link ApiClientOptions.readRetries}); writes never get any. */
  retries?: number;
}

/** What request listeners see: the method and the path (with query) that was asked for. */
export interface RequestInfo {
  method: HttpMethod;
  url: string;
}

export interface ApiClientOptions {
  /** Prefix for every path; empty in the browser (same origin). */
  baseUrl: string;
  /** The whole budget of a call, its retries included (spec §7, §9: 20 s). */
  timeoutMs: number;
  csrfToken: () => string | null;
  /** More tries for a read (GET) that met a network error or a 5xx answer. */
  readRetries: number;
  /** The wait before retry number `retry` (0, 1, …). */
  retryDelayMs: (retry: number) => number;
}

/** 0.5 s before the first retry, then twice as long each time. */
export const defaultRetryDelayMs = (retry: number) => 500 * 2 ** retry;

/**
 * Whether a failed call may be sent again: only a read (GET: asking again changes nothing on the panel) whose
 * attempt met a network error or a 5xx answer. A write is never repeated (the panel may have done it before the
 * answer was lost), nor is a 4xx (asking again gets the same answer) or a time-out (the call's budget is spent).
 */
export function isRetryable(method: HttpMethod, error: unknown): boolean {
  if (method !== 'GET' || !(error instanceof ApiError)) return false;
  return (
    (error.status === 0 && error.code === 'NetworkError') || (error.status >= 500 && error.status <= 599)
  );
}

type Listener<T extends unknown[]> = (...args: T) => void;

function listeners<T extends unknown[]>() {
  const set = new Set<Listener<T>>();
  return {
    add(listener: Listener<T>) {
      set.add(listener);
      return () => void set.delete(listener);
    },
    emit(...args: T) {
      for (const listener of set) listener(...args);
    },
  };
}

function buildUrl(path: string, params?: QueryParams): string {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params ?? {})) {
    if (value !== undefined && value !== null) query.append(key, String(value));
  }
  const search = query.toString();
  return search ? `${path}${path.includes('?') ? '&' : '?'}${search}` : path;
}

function parseJson(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** Resolves after `ms`, or rejects with the signal's reason once the caller gives up. */
function wait(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const done = () => {
      signal?.removeEventListener('abort', abort);
      resolve();
    };
    const timer = setTimeout(done, ms);
    const abort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', abort, { once: true });
  });
}

/** Message for people: the first error's detail, else the body's `error` string, else the generic message. */
export function messageFromBody(body: unknown): string {
  if (typeof body === 'object' && body !== null) {
    const detail = (body as Partial<ApiErrorBody>).errors?.[0]?.detail;
    if (typeof detail === 'string' && detail !== '') return detail;
    const error = (body as { error?: unknown }).error;
    if (typeof error === 'string' && error !== '') return error;
  }
  return genericErrorMessage;
}

function codeFromBody(body: unknown, status: number): string {
  const code = (body as Partial<ApiErrorBody> | undefined)?.errors?.[0]?.code;
  return typeof code === 'string' ? code : `HttpStatus${status}`;
}

/**
 * The panel's refusal of an account that must turn on two-factor first (spec §8): the app answers it by moving to
 * /account, where the '2-Factor Required' banner says it all (app/api-wiring.ts).
 */
export function isTwoFactorRequired(error: unknown): error is ApiError {
  return error instanceof ApiError && error.status === 400 && error.code === 'TwoFactorAuthRequiredException';
}

/** Turns anything thrown by a call (or by code around it) into the text a flash message shows. */
export function errorToMessage(error: unknown): string {
  if (error instanceof Error && error.message !== '') return error.message;
  return genericErrorMessage;
}

/**
 * The one transport of the SPA: JSON over fetch with the panel's headers, a time-out and typed errors.
 * It has no UI: the progress bar and redirects subscribe through the listeners (see app/api-wiring.ts).
 */
export function createApiClient(initial: Partial<ApiClientOptions> = {}) {
  const options: ApiClientOptions = {
    baseUrl: '',
    timeoutMs: limits.requestTimeoutMs,
    csrfToken: readCsrfToken,
    readRetries: 2,
    retryDelayMs: defaultRetryDelayMs,
    ...initial,
  };
  const started = listeners<[RequestInfo]>();
  const ended = listeners<[RequestInfo]>();
  const failed = listeners<[ApiError, RequestInfo]>();

  async function send(
    info: RequestInfo,
    {
      body,
      rawBody,
      signal,
      timeoutMs,
      raw,
    }: Omit<RequestOptions, 'params' | 'retries'> & { timeoutMs: number },
  ): Promise<unknown> {
    const headers: Record<string, string> = {
      Accept: 'application/json',
      'X-Requested-With': REQUESTED_WITH_VALUE,
    };
    const csrf = options.csrfToken();
    if (csrf) headers['X-CSRF-Token'] = csrf;
    if (rawBody !== undefined) headers['Content-Type'] = 'text/plain';
    else if (body !== undefined) headers['Content-Type'] = 'application/json';

    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeoutMs);
    const forwardAbort = () => controller.abort();
    signal?.addEventListener('abort', forwardAbort);

    let response: Response;
    let text: string;
    try {
      response = await fetch(`${options.baseUrl}${info.url}`, {
        method: info.method,
        headers,
        body: rawBody ?? (body === undefined ? undefined : JSON.stringify(body)),
        credentials: 'same-origin',
        signal: controller.signal,
      });
      text = await response.text();
    } catch (cause) {
      if (signal?.aborted) throw cause;
      throw new ApiError(0, timedOut ? 'RequestTimeout' : 'NetworkError', genericErrorMessage);
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', forwardAbort);
    }

    if (raw && response.ok) return text;
    const parsed = parseJson(text);
    if (!response.ok) {
      throw new ApiError(
        response.status,
        codeFromBody(parsed, response.status),
        messageFromBody(parsed),
        parsed,
      );
    }
    return parsed;
  }

  /**
   * One call: its attempts share the time-out, counted from the first, so the caller hears of a failure no later
   * than the time-out after asking (spec §7, §9), retries or not. A retry is sent only if it can start before then.
   */
  async function attempt(
    info: RequestInfo,
    { retries, timeoutMs, ...payload }: Omit<RequestOptions, 'params'>,
  ) {
    const deadline = Date.now() + (timeoutMs ?? options.timeoutMs);
    const allowed = retries ?? options.readRetries;
    let previous: unknown;
    for (let retry = 0; ; retry += 1) {
      try {
        return await send(info, { ...payload, timeoutMs: Math.max(0, deadline - Date.now()) });
      } catch (thrown) {
        // A retry cut short by the deadline tells less than the panel's own answer before it.
        const error =
          previous !== undefined && thrown instanceof ApiError && thrown.code === 'RequestTimeout'
            ? previous
            : thrown;
        if (retry >= allowed || !isRetryable(info.method, error) || payload.signal?.aborted) throw error;
        const delay = options.retryDelayMs(retry);
        if (Date.now() + delay >= deadline) throw error;
        previous = error;
        await wait(delay, payload.signal);
      }
    }
  }

  async function request<T>(method: HttpMethod, path: string, { params, ...payload }: RequestOptions = {}) {
    const info: RequestInfo = { method, url: buildUrl(path, params) };
    started.emit(info);
    try {
      return (await attempt(info, payload)) as T;
    } catch (error) {
      if (error instanceof ApiError) failed.emit(error, info);
      throw error;
    } finally {
      ended.emit(info);
    }
  }

  return {
    request,
    get: <T>(path: string, opts?: Omit<RequestOptions, 'body'>) => request<T>('GET', path, opts),
    post: <T>(path: string, body?: unknown, opts?: RequestOptions) =>
      request<T>('POST', path, { ...opts, body }),
    put: <T>(path: string, body?: unknown, opts?: RequestOptions) =>
      request<T>('PUT', path, { ...opts, body }),
    patch: <T>(path: string, body?: unknown, opts?: RequestOptions) =>
      request<T>('PATCH', path, { ...opts, body }),
    delete: <T = void>(path: string, opts?: RequestOptions) => request<T>('DELETE', path, opts),
    /** Called before every request; returns an unsubscribe function. */
    onRequestStart: started.add,
    /** Called after every request, answered or not. */
    onRequestEnd: ended.add,
    /** Called with every ApiError before it reaches the caller. */
    onError: failed.add,
    /** Tests point the client at their local server; the app never needs this. */
    configure(next: Partial<ApiClientOptions>) {
      Object.assign(options, next);
    },
  };
}

export type ApiClient = ReturnType<typeof createApiClient>;

/** The app's client. */
export const apiClient = createApiClient();

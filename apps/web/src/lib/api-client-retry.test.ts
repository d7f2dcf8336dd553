import { QueryObserver } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError, createApiClient } from '@/lib/api-client';
import { createQueryClient } from '@/lib/query-client';

/**
 * The retry policy on a controllable clock (spec §7, §9: a 20 s time-out): fetch is a script of what each attempt
 * meets, timers and Date are fake, so each test states exactly when the caller hears of the outcome.
 */
type Step = 'hang' | 'network' | { status: number; body?: unknown; afterMs?: number };

let attempts: { at: number; method: string }[] = [];
let start = 0;

function stubFetch(script: (attempt: number) => Step) {
  attempts = [];
  vi.stubGlobal(
    'fetch',
    vi.fn((_url: string, init: RequestInit) => {
      attempts.push({ at: Date.now() - start, method: init.method ?? 'GET' });
      const step = script(attempts.length);
      return new Promise<Response>((resolve, reject) => {
        init.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
        if (step === 'hang') return;
        const settle = () =>
          step === 'network'
            ? reject(new TypeError('Failed to fetch'))
            : resolve(new Response(JSON.stringify(step.body ?? {}), { status: step.status }));
        if (step !== 'network' && step.afterMs) setTimeout(settle, step.afterMs);
        else settle();
      });
    }),
  );
}

/** Records when (on the fake clock) a call settles, and how. */
function track<T>(promise: Promise<T>) {
  const outcome: { at?: number; value?: T; error?: unknown } = {};
  promise.then(
    (value) => Object.assign(outcome, { at: Date.now() - start, value }),
    (error: unknown) => Object.assign(outcome, { at: Date.now() - start, error }),
  );
  return outcome;
}

const api = () => createApiClient({ baseUrl: 'http://panel.test', csrfToken: () => null });
const advance = (ms: number) => vi.advanceTimersByTimeAsync(ms);

beforeEach(() => {
  vi.useFakeTimers();
  start = Date.now();
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('api client retry policy', () => {
  it('fails a hung read once, exactly 20 s after asking, without a second attempt', async () => {
    stubFetch(() => 'hang');
    const call = track(api().get('/api/client'));
    await advance(19_999);
    expect(call.at).toBeUndefined();
    await advance(1);
    expect(call.at).toBe(20_000);
    expect(call.error).toMatchObject({ status: 0, code: 'RequestTimeout' });
    expect(attempts).toHaveLength(1);
  });

  it('retries a read after a network error, 0.5 s then 1 s later, and answers with the first success', async () => {
    stubFetch((n) => (n < 3 ? 'network' : { status: 200, body: { data: 'ok' } }));
    const call = track(api().get('/api/client'));
    await advance(2_000);
    expect(call.value).toEqual({ data: 'ok' });
    expect(attempts.map((a) => a.at)).toEqual([0, 500, 1_500]);
    expect(call.at).toBe(1_500);
  });

  it('retries a read answered 5xx, and gives up after two retries with the last answer', async () => {
    stubFetch(() => ({ status: 503, body: { errors: [{ code: 'HttpException', detail: 'Daemon down.' }] } }));
    const call = track(api().get('/api/client/servers/abc/files/list'));
    await advance(20_000);
    expect(attempts.map((a) => a.at)).toEqual([0, 500, 1_500]);
    expect(call.at).toBe(1_500);
    expect(call.error).toMatchObject({ status: 503, message: 'Daemon down.' });
  });

  it('never sends a retry that could not finish by 20 s after asking, and gives a late retry only what is left', async () => {
    // The first answer takes 19.6 s: a retry 0.5 s later would start after the deadline.
    stubFetch(() => ({ status: 502, afterMs: 19_600 }));
    const late = track(api().get('/api/client'));
    await advance(20_000);
    expect(attempts).toHaveLength(1);
    expect(late.at).toBe(19_600);
    expect(late.error).toMatchObject({ status: 502 });

    // The first answer takes 15 s, the retry hangs: it is cut at 20 s, not 20 s after it started, and the caller
    // hears the panel's answer rather than the cut.
    start = Date.now();
    stubFetch((n) => (n === 1 ? { status: 502, afterMs: 15_000 } : 'hang'));
    const cut = track(api().get('/api/client'));
    await advance(25_000);
    expect(attempts.map((a) => a.at)).toEqual([0, 15_500]);
    expect(cut.at).toBe(20_000);
    expect(cut.error).toMatchObject({ status: 502 });
  });

  it.each(['POST', 'PUT', 'PATCH', 'DELETE'] as const)(
    'never repeats a write (%s), on a 5xx or a network error',
    async (method) => {
      for (const step of [{ status: 500 }, 'network'] as const) {
        stubFetch(() => step);
        const call = track(api().request(method, '/api/client/account/api-keys', { body: {} }));
        await advance(5_000);
        expect(attempts).toEqual([{ at: expect.any(Number), method }]);
        expect(call.error).toBeInstanceOf(ApiError);
      }
    },
  );

  it('does not retry a 4xx read: asking again gets the same answer', async () => {
    stubFetch(() => ({
      status: 404,
      body: { errors: [{ code: 'NotFoundHttpException', detail: 'Gone.' }] },
    }));
    const call = track(api().get('/api/client/servers/nope'));
    await advance(5_000);
    expect(attempts).toHaveLength(1);
    expect(call.at).toBe(0);
    expect(call.error).toMatchObject({ status: 404 });
  });

  it('stops waiting to retry once the caller gives up', async () => {
    stubFetch(() => 'network');
    const controller = new AbortController();
    const call = track(api().get('/api/client', { signal: controller.signal }));
    await advance(100);
    controller.abort();
    await advance(5_000);
    expect(attempts).toHaveLength(1);
    expect(call.error).not.toBeInstanceOf(ApiError);
  });
});

describe('a page query on the api client', () => {
  it('shows the error of a hung read 20 s after asking (one attempt), not after three time-outs', async () => {
    stubFetch(() => 'hang');
    const client = api();
    const observer = new QueryObserver(createQueryClient(), {
      queryKey: ['hung'],
      queryFn: ({ signal }) => client.get('/api/client', { signal }),
    });
    let failedAt: number | undefined;
    const stop = observer.subscribe((result) => {
      if (result.isError && failedAt === undefined) failedAt = Date.now() - start;
    });
    await advance(70_000);
    stop();
    expect(failedAt).toBe(20_000);
    expect(attempts).toHaveLength(1);
  });

  it('shows the error of a read the panel keeps answering 500 within 20 s', async () => {
    stubFetch(() => ({ status: 500, afterMs: 9_000 }));
    const client = api();
    const observer = new QueryObserver(createQueryClient(), {
      queryKey: ['broken'],
      queryFn: ({ signal }) => client.get('/api/client', { signal }),
    });
    let failedAt: number | undefined;
    const stop = observer.subscribe((result) => {
      if (result.isError && failedAt === undefined) failedAt = Date.now() - start;
    });
    await advance(70_000);
    stop();
    // 9 s, a 0.5 s wait, 9 s more, a 1 s wait: the third attempt is cut at 20 s.
    expect(attempts.map((a) => a.at)).toEqual([0, 9_500, 19_500]);
    expect(failedAt).toBe(20_000);
  });
});

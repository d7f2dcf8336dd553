import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  /** Parsed JSON when the body was JSON, the raw text otherwise, undefined when empty. */
  body: unknown;
}

export interface TestResponse {
  status?: number;
  /** Sent as JSON unless `raw` is given. */
  body?: unknown;
  raw?: string;
  contentType?: string;
  delayMs?: number;
  /** Extra response headers, e.g. CORS headers of a daemon URL the page calls cross-origin. */
  headers?: Record<string, string>;
}

export type TestHandler = (request: RecordedRequest) => TestResponse | Promise<TestResponse>;

/**
 * A real HTTP server on a free local port: the network boundary of component and client tests. Handlers are keyed
 * by 'METHOD /path' (without the query); anything else gets the panel's 404 envelope.
 */
export async function startTestServer(initial: Record<string, TestHandler> = {}) {
  const handlers = new Map(Object.entries(initial));
  const requests: RecordedRequest[] = [];
  // Which reset a connection was opened after: a request a previous test's page sent just before it was unmounted
  // may arrive after the next test's reset, and is not that test's to see.
  let generation = 0;
  const opened = new WeakMap<object, number>();

  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    let body: unknown = text === '' ? undefined : text;
    try {
      body = text === '' ? undefined : JSON.parse(text);
    } catch {
      // Keep the raw text: the test may want to see what was sent.
    }
    const recorded: RecordedRequest = {
      method: req.method ?? 'GET',
      url: req.url ?? '/',
      headers: req.headers,
      body,
    };
    if (opened.get(req.socket) === generation) requests.push(recorded);

    const path = (req.url ?? '/').split('?')[0];
    const handler = handlers.get(`${req.method} ${path}`);
    const answer: TestResponse = handler
      ? await handler(recorded)
      : {
          status: 404,
          body: {
            errors: [
              {
                code: 'NotFoundHttpException',
                status: '404',
                detail: 'The requested resource could not be found on the server.',
              },
            ],
          },
        };
    if (answer.delayMs) await new Promise((resolve) => setTimeout(resolve, answer.delayMs));
    if (res.destroyed) return;
    const payload = answer.raw ?? (answer.body === undefined ? '' : JSON.stringify(answer.body));
    res.writeHead(answer.status ?? 200, {
      ...answer.headers,
      'content-type': answer.contentType ?? (answer.raw === undefined ? 'application/json' : 'text/plain'),
      // A fresh connection per call: Node's fetch would otherwise reuse a kept-alive one the server may be closing
      // at that moment on a busy machine, and a POST (not retried) then fails as a network error.
      connection: 'close',
    });
    res.end(payload);
  });

  server.on('connection', (socket) => opened.set(socket, generation));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    on(key: string, handler: TestHandler) {
      handlers.set(key, handler);
    },
    reset() {
      handlers.clear();
      requests.length = 0;
      generation += 1;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export type TestServer = Awaited<ReturnType<typeof startTestServer>>;

/** The panel's error envelope. */
export const errorEnvelope = (status: number, code: string, detail: string) => ({
  status,
  body: { errors: [{ code, status: String(status), detail }] },
});

import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import { PassThrough, type Readable } from 'node:stream';
import type { SecretBox } from '@aerie/panel/crypto/secret-box';
import type { NodeRecord } from '@aerie/panel/features/nodes/node-record';
import { nodeAddress } from '@aerie/panel/features/nodes/nodes.service';

/** The daemon could not be reached (refused, reset, DNS, time-out). */
export class DaemonUnreachableError extends Error {
  override name = 'DaemonUnreachableError';
}

/** The daemon answered with an error status; `message` is its error text when it sent one. */
export class DaemonResponseError extends Error {
  override name = 'DaemonResponseError';
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** What a daemon call needs of a node: where it listens and its sealed token. */
export type DaemonNode = Pick<NodeRecord, 'name' | 'scheme' | 'fqdn' | 'daemonListen' | 'daemonToken'>;

/** A daemon answer whose body the caller reads (or drops with `body.destroy()`, which closes the connection). */
export interface DaemonStream {
  status: number;
  headers: Headers;
  body: Readable;
}

/** A body sent as it arrives, with its length declared up front (the daemon needs Content-Length to write). */
export interface DaemonUpload {
  stream: Readable;
  length: number;
}

/**
 * Connections the panel process keeps to one daemon at most. Calls past them wait for one to be free (within their
 * time-out) instead of opening more: the daemon holds one address to 256 connections and closes the ones past it,
 * which under load turned a burst of calls into 502s, and a daemon answers no faster with more.
 */
export const CONNECTIONS_PER_DAEMON = 64;

/**
 * One pool for every DaemonClient of the process, so the bound holds per daemon (`maxSockets` is per host and port)
 * whatever asks. Node's own client rather than the undici package, whose import replaces the dispatcher of Node
 * 20's global fetch with its own (S3 uploads through fetch then failed on their headers).
 */
const daemonConnections = {
  'http:': new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS_PER_DAEMON }),
  'https:': new https.Agent({ keepAlive: true, maxSockets: CONNECTIONS_PER_DAEMON }),
};

/**
 * The transport every daemon call goes through (reference/wings.md §1.3): `Authorization: Bearer <node token>`
 * (the token alone, opened from its sealed form, as Wings expects), a time-out per call, and the errors:
 * DaemonUnreachableError, or DaemonResponseError for a non-2xx answer (404: the daemon has no such server).
 */
export class DaemonTransport {
  constructor(
    private readonly secretBox: SecretBox,
    private readonly options: { timeoutMs: number } = { timeoutMs: 5000 },
  ) {}

  /**
   * Opened node tokens by their sealed form: opening one (AES-GCM) cost more than the rest of a resources call.
   * A rotated token is sealed anew, so it never meets its old entry.
   */
  readonly #tokens = new Map<string, string>();

  #token(sealed: string): string {
    const known = this.#tokens.get(sealed);
    if (known !== undefined) return known;
    const token = this.secretBox.open(sealed);
    if (this.#tokens.size >= 1000) this.#tokens.clear();
    this.#tokens.set(sealed, token);
    return token;
  }

  /** A JSON call: the answer's JSON (`{}` for an empty one). */
  async request<T>(
    node: DaemonNode,
    method: string,
    path: string,
    body?: unknown,
    timeoutMs = this.options.timeoutMs,
  ): Promise<T> {
    const response = await this.send(node, method, path, {
      timeoutMs,
      ...(body === undefined
        ? {}
        : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
    });
    return (parse(await readText(node, response)) ?? {}) as T;
  }

  /**
   * One authenticated call; throws for an unreachable daemon or a non-2xx answer (its body read for the error).
   * Made with Node's `http.request` rather than `fetch`: Node streams in and out, none of fetch's web streams,
   * Request and Response objects, which were a tenth of a loaded panel's CPU.
   */
  async send(
    node: DaemonNode,
    method: string,
    path: string,
    init: { headers?: Record<string, string>; body?: string | Readable; timeoutMs: number },
  ): Promise<DaemonStream> {
    const token = this.#token(node.daemonToken);
    let answer: IncomingMessage;
    try {
      answer = await exchange(new URL(`${nodeAddress(node)}${path}`), {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          accept: 'application/json',
          ...(typeof init.body === 'string'
            ? { 'content-length': String(Buffer.byteLength(init.body)) }
            : {}),
          ...init.headers,
        },
        body: init.body,
        timeoutMs: init.timeoutMs,
      });
    } catch (error) {
      throw unreachable(node, error);
    }
    const status = answer.statusCode ?? 0;
    const headers = new Headers();
    for (const [name, value] of Object.entries(answer.headers)) {
      if (typeof value === 'string') headers.set(name, value);
      else for (const each of value ?? []) headers.append(name, each);
    }
    const response = { status, headers, body: answer as Readable };
    if (status < 200 || status > 299) {
      const parsed = parse(await readText(node, response));
      const message = typeof parsed?.error === 'string' ? parsed.error : `HTTP ${status}`;
      throw new DaemonResponseError(status, message);
    }
    return response;
  }
}

/**
 * One request over the pool, resolved with the answer once its head arrives. The time-out covers the whole exchange,
 * the answer's body included: past it the request is destroyed and a body being read fails.
 */
function exchange(
  url: URL,
  options: { method: string; headers: Record<string, string>; body?: string | Readable; timeoutMs: number },
): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const client = url.protocol === 'https:' ? https : http;
    const request = client.request(url, {
      method: options.method,
      headers: options.headers,
      agent: daemonConnections[url.protocol === 'https:' ? 'https:' : 'http:'],
      signal: AbortSignal.timeout(options.timeoutMs),
    });
    request.once('response', resolve);
    request.on('error', reject);
    if (typeof options.body !== 'object') {
      request.end(options.body);
      return;
    }
    const body = detached(options.body);
    body.once('error', (error) => request.destroy(error));
    body.pipe(request);
  });
}

/**
 * What is sent of a streamed body: the client's own request stream is never destroyed by a failed call, which would
 * cut the client's connection before the 502 reaches it. The source's own failure (the client went) still fails the
 * call at once.
 */
function detached(source: Readable): Readable {
  const body = new PassThrough();
  source.once('error', (error) => body.destroy(error));
  // The call's rejection reports it; an error event nobody listens to would end the process.
  body.on('error', () => {});
  return source.pipe(body);
}

const unreachable = (node: DaemonNode, error: unknown) =>
  new DaemonUnreachableError(`${node.name}: ${(error as Error).message}`, { cause: error });

/** The whole answer; a connection lost (or timed out) halfway counts as unreachable. */
async function readText(node: DaemonNode, response: DaemonStream): Promise<string> {
  try {
    const chunks: Buffer[] = [];
    for await (const chunk of response.body) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  } catch (error) {
    throw unreachable(node, error);
  }
}

function parse(text: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

import { PassThrough, type Readable } from 'node:stream';
import type { SecretBox } from '@aerie/panel/crypto/secret-box';
import type { NodeRecord } from '@aerie/panel/features/nodes/node-record';
import { nodeAddress } from '@aerie/panel/features/nodes/nodes.service';
import { Agent, request } from 'undici';

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

/** One pool for every DaemonClient of the process, so the bound holds per daemon whatever asks. */
const daemonConnections = new Agent({ connections: CONNECTIONS_PER_DAEMON });

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
   * Made with undici's `request` rather than `fetch`: Node streams in and out, none of fetch's web streams, Request
   * and Response objects, which were a tenth of a loaded panel's CPU.
   */
  async send(
    node: DaemonNode,
    method: string,
    path: string,
    init: { headers?: Record<string, string>; body?: string | Readable; timeoutMs: number },
  ): Promise<DaemonStream> {
    const token = this.#token(node.daemonToken);
    const body = typeof init.body === 'object' ? detached(init.body) : init.body;
    let answer: Awaited<ReturnType<typeof request>>;
    try {
      answer = await request(`${nodeAddress(node)}${path}`, {
        method: method as 'GET',
        headers: { authorization: `Bearer ${token}`, accept: 'application/json', ...init.headers },
        body,
        // The whole exchange, the answer's body included, as fetch's signal did.
        signal: AbortSignal.timeout(init.timeoutMs),
        dispatcher: daemonConnections,
      });
    } catch (error) {
      throw unreachable(node, error);
    }
    const headers = new Headers();
    for (const [name, value] of Object.entries(answer.headers)) {
      if (typeof value === 'string') headers.set(name, value);
      else for (const each of value ?? []) headers.append(name, each);
    }
    const response = { status: answer.statusCode, headers, body: answer.body };
    if (answer.statusCode < 200 || answer.statusCode > 299) {
      const parsed = parse(await readText(node, response));
      const message = typeof parsed?.error === 'string' ? parsed.error : `HTTP ${answer.statusCode}`;
      throw new DaemonResponseError(answer.statusCode, message);
    }
    return response;
  }
}

/**
 * What undici sends of a streamed body. undici destroys a body it could not send with its error; given the client's
 * own request stream, that would cut the client's connection before the 502 reaches it. The source's own failure
 * (the client went) still fails the call at once.
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

import type { Readable } from 'node:stream';
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
 * The transport every daemon call goes through (reference/wings.md §1.3): `Authorization: Bearer <node token>`
 * (the token alone, opened from its sealed form, as Wings expects), a time-out per call, and the errors:
 * DaemonUnreachableError, or DaemonResponseError for a non-2xx answer (404: the daemon has no such server).
 */
export class DaemonTransport {
  constructor(
    private readonly secretBox: SecretBox,
    private readonly options: { timeoutMs: number } = { timeoutMs: 5000 },
  ) {}

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

  /** One authenticated call; throws for an unreachable daemon or a non-2xx answer (its body read for the error). */
  async send(
    node: DaemonNode,
    method: string,
    path: string,
    init: { headers?: Record<string, string>; body?: string | ReadableStream<Uint8Array>; timeoutMs: number },
  ): Promise<Response> {
    const token = this.secretBox.open(node.daemonToken);
    let response: Response;
    try {
      response = await fetch(`${nodeAddress(node)}${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, accept: 'application/json', ...init.headers },
        body: init.body,
        // A streamed body needs half-duplex (the answer may only be read once the body is sent).
        ...(typeof init.body === 'object' ? { duplex: 'half' as const } : {}),
        signal: AbortSignal.timeout(init.timeoutMs),
      });
    } catch (error) {
      throw unreachable(node, error);
    }
    if (!response.ok) {
      const parsed = parse(await readText(node, response));
      const message = typeof parsed?.error === 'string' ? parsed.error : `HTTP ${response.status}`;
      throw new DaemonResponseError(response.status, message);
    }
    return response;
  }
}

const unreachable = (node: DaemonNode, error: unknown) =>
  new DaemonUnreachableError(`${node.name}: ${(error as Error).message}`, { cause: error });

/** The whole answer; a connection lost (or timed out) halfway counts as unreachable. */
async function readText(node: DaemonNode, response: Response): Promise<string> {
  try {
    return await response.text();
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

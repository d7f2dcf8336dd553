import { Readable } from 'node:stream';
import type { SecretBox } from '@aerie/panel/crypto/secret-box';
import { nodeAddress } from '@aerie/panel/nodes/nodes.service';
import type { NodeRecord } from '@aerie/panel/servers/server-record';
import type { DaemonNodeDenyBody, DaemonServerDenyBody } from '@aerie/shared/daemon/deny-wire';
import type { DaemonCreateServerBody, DaemonPowerBody } from '@aerie/shared/daemon/remote-wire';
import type {
  ChmodFilesBody,
  DaemonCreateDirectoryBody,
  DaemonFileStat,
  DeleteFilesBody,
  RenameFilesBody,
} from '@aerie/shared/files/file-wire';

/** Wings' `GET /api/servers/{uuid}` (reference/wings.md): the server's state and its live utilization. */
export interface DaemonServerDetails {
  state?: string;
  is_suspended?: boolean;
  utilization?: {
    memory_bytes?: number;
    cpu_absolute?: number;
    disk_bytes?: number;
    network?: { rx_bytes?: number; tx_bytes?: number };
    uptime?: number;
    state?: string;
  };
}

/**
 * `GET /api/system`: Wings' fields, and the disk figures of the daemon's data directory (Aerie's, read live; null
 * when the daemon could not read them, absent from Wings and older daemons).
 */
export interface DaemonSystemInfo {
  version?: string;
  kernel_version?: string;
  architecture?: string;
  os?: string;
  cpu_count?: number;
  disk_total_bytes?: number | null;
  disk_free_bytes?: number | null;
}

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

const serverPath = (uuid: string, rest = '') => `/api/servers/${encodeURIComponent(uuid)}${rest}`;
const filesPath = (uuid: string, action: string, query?: Record<string, string>) =>
  serverPath(uuid, `/files/${action}${query ? `?${new URLSearchParams(query)}` : ''}`);

/**
 * Time-outs of the file calls. Archive work takes as long as the archive does, so it gets 15 minutes: longer
 * than the SPA's own 60 s (compress) and 300 s (decompress), so the SPA gives up first and says the archive will
 * appear once done, while the daemon finishes. A write may carry up to 100 MiB.
 */
export const fileCallTimeoutsMs = {
  list: 30_000,
  contents: 60_000,
  write: 5 * 60_000,
  /** rename, copy, delete, create-directory, chmod: one file-system operation each, but a copy or a delete can be big. */
  change: 60_000,
  archive: 15 * 60_000,
} as const;

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
 * The panel's side of the daemon API (reference/wings.md §1.3). Every call authenticates with
 * `Authorization: Bearer <node token>` — the token alone, opened from its sealed form, as Wings expects — and
 * gives up after `timeoutMs`.
 * Every method throws DaemonUnreachableError, or DaemonResponseError for a non-2xx answer (404: the daemon has
 * no such server).
 */
export class DaemonClient {
  constructor(
    private readonly secretBox: SecretBox,
    private readonly options: { timeoutMs: number } = { timeoutMs: 5000 },
  ) {}

  getServer(node: DaemonNode, uuid: string): Promise<DaemonServerDetails> {
    return this.request(node, 'GET', serverPath(uuid));
  }

  /** `GET /api/system`: answers once the daemon is up and accepts this node's token. */
  system(node: DaemonNode): Promise<DaemonSystemInfo> {
    return this.request(node, 'GET', '/api/system');
  }

  /** Accepted (202) means queued: the daemon runs the action in the background. */
  async power(node: DaemonNode, uuid: string, action: DaemonPowerBody['action']): Promise<void> {
    await this.request(node, 'POST', serverPath(uuid, '/power'), { action } satisfies DaemonPowerBody);
  }

  /** The daemon answers 502 when the server is not running. */
  async commands(node: DaemonNode, uuid: string, commands: string[]): Promise<void> {
    await this.request(node, 'POST', serverPath(uuid, '/commands'), { commands });
  }

  /** Creates the server on the daemon, which then fetches its install script and reports the result. */
  async createServer(node: DaemonNode, uuid: string, startOnCompletion: boolean): Promise<void> {
    const body: DaemonCreateServerBody = { uuid, start_on_completion: startOnCompletion };
    await this.request(node, 'POST', '/api/servers', body);
  }

  /** Installs a server the daemon already has (it syncs its configuration first); reported as an install. */
  async install(node: DaemonNode, uuid: string): Promise<void> {
    await this.request(node, 'POST', serverPath(uuid, '/install'));
  }

  /** Runs the install script again; a failure is reported as a failed reinstall. */
  async reinstall(node: DaemonNode, uuid: string): Promise<void> {
    await this.request(node, 'POST', serverPath(uuid, '/reinstall'));
  }

  /**
   * `POST …/ws/deny` (Wings' route; `user_uuids` is Aerie's extension, Wings reads only `jtis`): the daemon
   * refuses the tokens with these jtis, and every websocket token and signed file URL of these users for this
   * server, issued up to now; their open console sockets on it close.
   */
  async denyOnServer(node: DaemonNode, uuid: string, body: DaemonServerDenyBody): Promise<void> {
    await this.request(node, 'POST', serverPath(uuid, '/ws/deny'), body);
  }

  /** `POST /api/deny` (Aerie's): `denyOnServer` for these users on every server of the node. */
  async denyUsers(node: DaemonNode, userUuids: string[]): Promise<void> {
    await this.request(node, 'POST', '/api/deny', { user_uuids: userUuids } satisfies DaemonNodeDenyBody);
  }

  /** Makes the daemon fetch the server's configuration again and apply it. */
  async sync(node: DaemonNode, uuid: string): Promise<void> {
    await this.request(node, 'POST', serverPath(uuid, '/sync'));
  }

  /** `GET …/files/list-directory`: the directory's entries, folders first. */
  async listDirectory(node: DaemonNode, uuid: string, directory: string): Promise<DaemonFileStat[]> {
    const path = filesPath(uuid, 'list-directory', { directory });
    const entries = await this.request<unknown>(node, 'GET', path, undefined, fileCallTimeoutsMs.list);
    if (!Array.isArray(entries)) throw new DaemonResponseError(502, 'The daemon sent no directory listing');
    return entries as DaemonFileStat[];
  }

  /** `GET …/files/contents`: the raw bytes, unread, so the caller can judge Content-Length first. */
  async fileContents(node: DaemonNode, uuid: string, file: string): Promise<DaemonStream> {
    const response = await this.send(node, 'GET', filesPath(uuid, 'contents', { file }), {
      timeoutMs: fileCallTimeoutsMs.contents,
    });
    const body = response.body ? Readable.fromWeb(response.body) : Readable.from([]);
    return { status: response.status, headers: response.headers, body };
  }

  /** `POST …/files/write`: the body becomes the file (parents created), streamed with its length. */
  async writeFile(
    node: DaemonNode,
    uuid: string,
    file: string,
    contents: DaemonUpload | Buffer,
  ): Promise<void> {
    const upload = Buffer.isBuffer(contents)
      ? { stream: Readable.from([contents]), length: contents.length }
      : contents;
    const response = await this.send(node, 'POST', filesPath(uuid, 'write', { file }), {
      // The daemon takes the body as it is, whatever the client declared it to be.
      headers: { 'content-type': 'application/octet-stream', 'content-length': String(upload.length) },
      body: Readable.toWeb(upload.stream) as ReadableStream<Uint8Array>,
      timeoutMs: fileCallTimeoutsMs.write,
    });
    await response.body?.cancel();
  }

  async createDirectory(node: DaemonNode, uuid: string, body: DaemonCreateDirectoryBody): Promise<void> {
    await this.request(node, 'POST', filesPath(uuid, 'create-directory'), body, fileCallTimeoutsMs.change);
  }

  async renameFiles(node: DaemonNode, uuid: string, body: RenameFilesBody): Promise<void> {
    await this.request(node, 'PUT', filesPath(uuid, 'rename'), body, fileCallTimeoutsMs.change);
  }

  /** The daemon names the copy itself (`name copy.ext`, beside the original). */
  async copyFile(node: DaemonNode, uuid: string, location: string): Promise<void> {
    await this.request(node, 'POST', filesPath(uuid, 'copy'), { location }, fileCallTimeoutsMs.change);
  }

  async deleteFiles(node: DaemonNode, uuid: string, body: DeleteFilesBody): Promise<void> {
    await this.request(node, 'POST', filesPath(uuid, 'delete'), body, fileCallTimeoutsMs.change);
  }

  async chmodFiles(node: DaemonNode, uuid: string, body: ChmodFilesBody): Promise<void> {
    await this.request(node, 'POST', filesPath(uuid, 'chmod'), body, fileCallTimeoutsMs.change);
  }

  /** Packs the files into a new `archive-<time>.tar.gz` in `root`; answers its stat. */
  compressFiles(
    node: DaemonNode,
    uuid: string,
    body: { root: string; files: string[] },
  ): Promise<DaemonFileStat> {
    return this.request(node, 'POST', filesPath(uuid, 'compress'), body, fileCallTimeoutsMs.archive);
  }

  async decompressFile(node: DaemonNode, uuid: string, body: { root: string; file: string }): Promise<void> {
    await this.request(node, 'POST', filesPath(uuid, 'decompress'), body, fileCallTimeoutsMs.archive);
  }

  /** A JSON call: the answer's JSON (`{}` for an empty one). */
  private async request<T>(
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
  private async send(
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

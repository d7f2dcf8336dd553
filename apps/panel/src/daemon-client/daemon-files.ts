import { Readable } from 'node:stream';
import type {
  ChmodFilesBody,
  DaemonCreateDirectoryBody,
  DaemonFileStat,
  DaemonPullFileBody,
  DeleteFilesBody,
  RenameFilesBody,
} from '@aerie/shared/files/file-wire';
import {
  type DaemonNode,
  DaemonResponseError,
  type DaemonStream,
  type DaemonTransport,
  type DaemonUpload,
} from './daemon-transport';

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
  /** A background pull answers once its destination is checked; a foreground one once the file is whole. */
  pull: 60_000,
  pullForeground: 15 * 60_000,
} as const;

/** Wings' `/api/servers/{uuid}/files/*` for one server. */
export class DaemonServerFiles {
  readonly #transport: DaemonTransport;
  readonly #node: DaemonNode;
  readonly #uuid: string;

  constructor(transport: DaemonTransport, node: DaemonNode, uuid: string) {
    this.#transport = transport;
    this.#node = node;
    this.#uuid = uuid;
  }

  /** `GET …/files/list-directory`: the directory's entries, folders first. */
  async list(directory: string): Promise<DaemonFileStat[]> {
    const entries = await this.#json<unknown>(
      'GET',
      this.#path('list-directory', { directory }),
      undefined,
      'list',
    );
    if (!Array.isArray(entries)) throw new DaemonResponseError(502, 'The daemon sent no directory listing');
    return entries as DaemonFileStat[];
  }

  /** `GET …/files/contents`: the raw bytes, unread, so the caller can judge Content-Length first. */
  async contents(file: string): Promise<DaemonStream> {
    const response = await this.#transport.send(this.#node, 'GET', this.#path('contents', { file }), {
      timeoutMs: fileCallTimeoutsMs.contents,
    });
    const { body } = response;
    // A body nobody reads any more (the route failed after the call, the client left) still errors when its
    // time-out fires or the daemon goes: with no listener that error would end the panel's process. Whoever reads
    // it sees the error through the stream as before.
    body.on('error', () => {});
    return { status: response.status, headers: response.headers, body };
  }

  /** `POST …/files/write`: the body becomes the file (parents created), streamed with its length. */
  async write(file: string, contents: DaemonUpload | Buffer): Promise<void> {
    const upload = Buffer.isBuffer(contents)
      ? { stream: Readable.from([contents]), length: contents.length }
      : contents;
    const response = await this.#transport.send(this.#node, 'POST', this.#path('write', { file }), {
      // The daemon takes the body as it is, whatever the client declared it to be.
      headers: { 'content-type': 'application/octet-stream', 'content-length': String(upload.length) },
      body: upload.stream,
      timeoutMs: fileCallTimeoutsMs.write,
    });
    response.body.resume();
  }

  async createDirectory(body: DaemonCreateDirectoryBody): Promise<void> {
    await this.#json('POST', this.#path('create-directory'), body, 'change');
  }

  async rename(body: RenameFilesBody): Promise<void> {
    await this.#json('PUT', this.#path('rename'), body, 'change');
  }

  /** The daemon names the copy itself (`name copy.ext`, beside the original). */
  async copy(location: string): Promise<void> {
    await this.#json('POST', this.#path('copy'), { location }, 'change');
  }

  async delete(body: DeleteFilesBody): Promise<void> {
    await this.#json('POST', this.#path('delete'), body, 'change');
  }

  async chmod(body: ChmodFilesBody): Promise<void> {
    await this.#json('POST', this.#path('chmod'), body, 'change');
  }

  /** Packs the files into a new `archive-<time>.tar.gz` in `root`; answers its stat. */
  compress(body: { root: string; files: string[] }): Promise<DaemonFileStat> {
    return this.#json('POST', this.#path('compress'), body, 'archive');
  }

  async decompress(body: { root: string; file: string }): Promise<void> {
    await this.#json('POST', this.#path('decompress'), body, 'archive');
  }

  /**
   * `POST …/files/pull`: the daemon checks the destination and downloads (in the background unless `foreground`,
   * then it answers once the file is whole).
   */
  async pull(body: DaemonPullFileBody): Promise<void> {
    await this.#json('POST', this.#path('pull'), body, body.foreground ? 'pullForeground' : 'pull');
  }

  #path(action: string, query?: Record<string, string>): string {
    const search = query ? `?${new URLSearchParams(query)}` : '';
    return `/api/servers/${encodeURIComponent(this.#uuid)}/files/${action}${search}`;
  }

  #json<T>(method: string, path: string, body: unknown, kind: keyof typeof fileCallTimeoutsMs): Promise<T> {
    return this.#transport.request<T>(this.#node, method, path, body, fileCallTimeoutsMs[kind]);
  }
}

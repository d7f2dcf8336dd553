import { createHash, type Hash } from 'node:crypto';
import { mkdir, rm, statfs } from 'node:fs/promises';
import { PassThrough, type Readable } from 'node:stream';
import type { PanelApi, TransferPanelApi } from '@aerie/daemon/panel-client/panel-client';
import type { ServerManager } from '@aerie/daemon/server/server-manager';
import {
  TRANSFER_ARCHIVE_FIELD,
  TRANSFER_CHECKSUM_FIELD,
} from '@aerie/shared/transfers/transfers-daemon-wire';
import type { Multipart } from '@fastify/multipart';

/** A refused transfer: the status the source is answered with, and the reason it and the panel are told. */
export class TransferRefusal extends Error {
  override name = 'TransferRefusal';
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export interface IncomingTransfersOptions {
  manager: ServerManager;
  panel: Pick<PanelApi, 'getServer'> & TransferPanelApi;
}

/**
 * Servers this node is receiving (wings.md §1.5, target side). The files are extracted as they arrive into a folder
 * of their own (`transfers/<uuid>`), every entry checked like a restore's (nothing outside, no hard links, at most
 * the node's free space); only when the archive is whole and its SHA-256 matches the checksum sent after it does the
 * folder become the server's, the server join this node (stopped) and the panel hear of the success. Any failure
 * removes the folder and tells the panel why; a daemon killed part-way leaves only what boot removes.
 */
export class IncomingTransfers {
  readonly #options: IncomingTransfersOptions;
  readonly #running = new Map<string, AbortController>();

  constructor(options: IncomingTransfersOptions) {
    this.#options = options;
  }

  has(uuid: string): boolean {
    return this.#running.has(uuid);
  }

  /** Cancels the server's incoming transfer; false when none runs. */
  cancel(uuid: string, reason = 'the transfer was cancelled'): boolean {
    const running = this.#running.get(uuid);
    if (!running) return false;
    running.abort(new TransferRefusal(409, reason));
    return true;
  }

  /**
   * Receives `uuid` from the parts of `POST /api/transfers`.
   * @throws TransferRefusal with the status to answer; the panel has been told
   */
  async receive(uuid: string, parts: AsyncIterable<Multipart>): Promise<void> {
    const { manager, panel } = this.#options;
    if (manager.get(uuid) || this.#running.has(uuid)) {
      throw new TransferRefusal(409, 'the server already exists on the target node');
    }
    const abort = new AbortController();
    this.#running.set(uuid, abort);
    const staging = manager.transferStagingDirectory(uuid);
    try {
      // The panel's word that the transfer is real and comes here: it gives the configuration only to the target.
      const configuration = await panel.getServer(uuid).catch((error: unknown) => {
        throw new TransferRefusal(403, `the panel refused the server's configuration (${describe(error)})`);
      });
      await rm(staging, { recursive: true, force: true });
      await mkdir(staging, { recursive: true, mode: 0o700 });
      await this.#extract(uuid, staging, parts, abort.signal);
      await manager.acceptTransferred(configuration, staging);
      try {
        await panel.reportTransferSuccess(uuid);
      } catch (error) {
        await manager.settleTransferred(uuid, false);
        throw new TransferRefusal(502, `the panel did not take the success (${describe(error)})`);
      }
      await manager.settleTransferred(uuid, true);
    } catch (error) {
      const refusal = abort.signal.aborted
        ? (abort.signal.reason as TransferRefusal)
        : error instanceof TransferRefusal
          ? error
          : new TransferRefusal(500, describe(error));
      await rm(staging, { recursive: true, force: true }).catch(() => undefined);
      await panel.reportTransferFailure(uuid, { reason: refusal.message }).catch(() => undefined);
      throw refusal;
    } finally {
      this.#running.delete(uuid);
    }
  }

  /** The archive part, extracted and hashed as it comes, then the checksum part, which must match. */
  async #extract(uuid: string, staging: string, parts: AsyncIterable<Multipart>, signal: AbortSignal) {
    const files = await this.#options.manager.filesystemFor(uuid, staging);
    let digest: string | undefined;
    let checksum: string | undefined;
    for await (const part of untilAborted(parts, signal)) {
      if (part.type === 'file' && part.fieldname === TRANSFER_ARCHIVE_FIELD && digest === undefined) {
        const hash = createHash('sha256');
        const feed = new PassThrough({ highWaterMark: 1024 * 1024 });
        const room = await freeBytes(staging);
        const extracting = files.archives.receive(feed, room).catch((error: unknown) => {
          throw new TransferRefusal(422, `the archive could not be extracted (${describe(error)})`);
        });
        // A cancel, or the source hanging up, ends the reading at once (a cut upload never ends by itself).
        const stop = () => part.file.destroy(signal.reason as Error);
        if (signal.aborted) stop();
        else signal.addEventListener('abort', stop, { once: true });
        const hashing = hashInto(part.file, feed, hash, signal).finally(() =>
          signal.removeEventListener('abort', stop),
        );
        try {
          await Promise.all([hashing, extracting]);
        } catch (error) {
          // Either side stopping ends both, and nothing is left waiting on the other.
          feed.destroy();
          part.file.destroy();
          await Promise.allSettled([hashing, extracting]);
          throw error;
        }
        digest = hash.digest('hex');
      } else if (part.type === 'field' && part.fieldname === TRANSFER_CHECKSUM_FIELD) {
        if (digest === undefined) throw new TransferRefusal(400, 'the checksum came before the archive');
        checksum = String(part.value).trim().toLowerCase();
      } else {
        if (part.type === 'file') part.file.resume();
        throw new TransferRefusal(400, `the transfer has an unexpected part "${part.fieldname}"`);
      }
    }
    if (digest === undefined) throw new TransferRefusal(400, 'the transfer has no archive');
    if (checksum === undefined) throw new TransferRefusal(400, 'the transfer has no checksum');
    if (checksum !== digest) {
      throw new TransferRefusal(422, 'the archive does not match its checksum: it was damaged on the way');
    }
  }
}

/** The parts as they come, ended by the signal too: a multipart reader whose connection was cut may never end. */
async function* untilAborted<T>(parts: AsyncIterable<T>, signal: AbortSignal): AsyncGenerator<T> {
  const iterator = parts[Symbol.asyncIterator]();
  const aborted = new Promise<never>((_resolve, reject) => {
    if (signal.aborted) reject(signal.reason);
    else signal.addEventListener('abort', () => reject(signal.reason), { once: true });
  });
  aborted.catch(() => undefined);
  try {
    for (;;) {
      const next = await Promise.race([iterator.next(), aborted]);
      if (next.done) return;
      yield next.value;
    }
  } finally {
    void iterator.return?.()?.catch(() => undefined);
  }
}

/** Hashes every byte of `source` and passes it to `feed`, as fast as `feed` is read. */
async function hashInto(source: Readable, feed: PassThrough, hash: Hash, signal: AbortSignal): Promise<void> {
  for await (const chunk of source as AsyncIterable<Buffer>) {
    signal.throwIfAborted();
    hash.update(chunk);
    if (feed.destroyed) throw new Error('the extraction stopped');
    if (!feed.write(chunk)) {
      await new Promise<void>((resolve) => {
        const done = () => {
          feed.off('drain', done);
          feed.off('close', done);
          resolve();
        };
        feed.once('drain', done);
        feed.once('close', done);
      });
    }
  }
  if ((source as { truncated?: boolean }).truncated)
    throw new TransferRefusal(413, 'the archive is too large');
  feed.end();
}

async function freeBytes(directory: string): Promise<number> {
  const disk = await statfs(directory);
  return disk.bavail * disk.bsize;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

import { restorableItems } from '@aerie/daemon/backups/backup-archive';
import { errorDetail, type TransferPanelApi } from '@aerie/daemon/panel-client/panel-client';
import type { ManagedServer } from '@aerie/daemon/server/managed-server';
import type { DaemonTransferRequest } from '@aerie/shared/transfers/transfers-daemon-wire';
import { transferBody } from './transfer-body';

/** Wings waits 15 s for the server to stop before a transfer and never kills it: a server that will not stop stays. */
const STOP_TIMEOUT_MS = 15_000;
const PROGRESS_INTERVAL_MS = 5_000;
/**
 * A transfer that sent nothing for this long (a target that stopped reading, or never answered once it had every
 * byte: it answers after the panel did, within a minute) is failed rather than left transferring for ever.
 */
const STALL_TIMEOUT_MS = 5 * 60_000;

export interface OutgoingTransfersOptions {
  panel: TransferPanelApi;
  /** DAEMON_TRANSFER_LIMIT_MB: MiB per second a transfer may send; 0 for no limit. */
  limitMibPerSecond?: number;
  stopTimeoutMs?: number;
  progressIntervalMs?: number;
  stallTimeoutMs?: number;
}

const NO_FILTER = { ignores: () => false, canSkipIgnoredDirectories: false };

/**
 * Servers this node is sending to another (wings.md §1.5, source side): the server stops (refusing if it will not),
 * its files leave as one streamed tar.gz with its checksum, progress goes to `transfer logs` every 5 s. On the
 * target's 200 the server stays here, stopped and marked transferring, until the panel deletes it; on any failure
 * or cancel it is put back as it was (started again if it ran) and the panel is told why.
 */
export class OutgoingTransfers {
  readonly #options: OutgoingTransfersOptions;
  readonly #running = new Map<string, { abort: AbortController; done: Promise<void> }>();

  constructor(options: OutgoingTransfersOptions) {
    this.#options = options;
  }

  /**
   * Starts sending `server` in the background.
   * @throws ServerStateError when it is installing, restoring or already transferring (409)
   */
  start(server: ManagedServer, request: DaemonTransferRequest): void {
    const end = server.beginTransfer();
    const abort = new AbortController();
    const done = this.#send(server, request, end, abort.signal).finally(() =>
      this.#running.delete(server.uuid),
    );
    this.#running.set(server.uuid, { abort, done });
  }

  /** Cancels the server's outgoing transfer; false when none runs. */
  cancel(uuid: string): boolean {
    const running = this.#running.get(uuid);
    if (!running) return false;
    running.abort.abort(new Error('the transfer was cancelled'));
    return true;
  }

  /** Resolves once every transfer started so far has ended (tests, shutdown). */
  async settled(): Promise<void> {
    await Promise.all([...this.#running.values()].map((running) => running.done));
  }

  async #send(
    server: ManagedServer,
    request: DaemonTransferRequest,
    end: (outcome: 'failed' | 'succeeded') => void,
    signal: AbortSignal,
  ): Promise<void> {
    const wasRunning = server.state !== 'offline';
    server.emit('transfer status', 'starting');
    server.emit('transfer status', 'processing');
    try {
      if (wasRunning) {
        server.transferLog('Stopping the server for the transfer...');
        const stopped = await server.stopAndWait(this.#options.stopTimeoutMs ?? STOP_TIMEOUT_MS);
        if (!stopped) throw new Error('the server did not stop within 15 seconds, nothing was sent');
      }
      signal.throwIfAborted();
      await this.#stream(server, request, signal);
      end('succeeded');
      server.transferLog('The target node has the server; it is removed from this node next.');
      server.emit('transfer status', 'success');
    } catch (error) {
      const reason = signal.aborted ? (signal.reason as Error).message : describe(error);
      if (signal.aborted) server.emit('transfer status', 'cancelling');
      server.transferLog(`Transfer failed: ${reason}.`);
      end('failed');
      server.emit('transfer status', signal.aborted ? 'cancelled' : 'failure');
      if (signal.aborted) server.emit('transfer status', 'failure');
      if (wasRunning) server.powerInBackground('start');
      await this.#options.panel.reportTransferFailure(server.uuid, { reason }).catch((failure: unknown) => {
        console.error(
          `Could not report the failed transfer of ${server.uuid} to the panel: ${describe(failure)}`,
        );
      });
    }
  }

  async #stream(server: ManagedServer, request: DaemonTransferRequest, signal: AbortSignal): Promise<void> {
    const files = await server.files();
    const items = restorableItems(files.archives.backupItems(NO_FILTER), (name, target) =>
      server.transferLog(`Left out ${name}: its link to ${target} points outside the server's files.`),
    );
    const interval = this.#options.progressIntervalMs ?? PROGRESS_INTERVAL_MS;
    const startedAt = Date.now();
    let sent = 0;
    let movedAt = startedAt;
    const stalled = new AbortController();
    const stallTimeoutMs = this.#options.stallTimeoutMs ?? STALL_TIMEOUT_MS;
    const progress = setInterval(() => {
      const seconds = Math.max((Date.now() - startedAt) / 1000, 0.001);
      server.transferLog(`Sent ${mib(sent)} MiB (${mib(sent / seconds)} MiB/s)`);
    }, interval);
    const watchdog = setInterval(
      () => {
        if (Date.now() - movedAt >= stallTimeoutMs) {
          stalled.abort(
            new Error(`the target node took no data and gave no answer for ${stallTimeoutMs / 1000} s`),
          );
        }
      },
      Math.min(stallTimeoutMs, 1000),
    );
    const { contentType, body } = transferBody({
      items,
      bytesPerSecond: (this.#options.limitMibPerSecond ?? 0) * 1024 * 1024,
      onProgress: (bytes) => {
        sent = bytes;
        movedAt = Date.now();
      },
      signal,
    });
    server.transferLog('Sending the server files to the target node...');
    try {
      const response = await fetch(request.url, {
        method: 'POST',
        headers: { authorization: request.token, 'content-type': contentType },
        body: body as unknown as ReadableStream,
        duplex: 'half',
        signal: AbortSignal.any([signal, stalled.signal]),
      } as RequestInit).catch((error: unknown) => {
        throw stalled.signal.aborted ? stalled.signal.reason : error;
      });
      const text = await response.text();
      if (!response.ok) throw new Error(`the target node answered ${response.status}: ${errorDetail(text)}`);
      server.transferLog(`Sent ${mib(sent)} MiB in ${((Date.now() - startedAt) / 1000).toFixed(1)} s.`);
    } finally {
      clearInterval(progress);
      clearInterval(watchdog);
    }
  }
}

function mib(bytes: number): string {
  return (bytes / 1024 / 1024).toFixed(1);
}

function describe(error: unknown): string {
  const cause = (error as { cause?: { message?: string } }).cause?.message;
  const message = error instanceof Error ? error.message : String(error);
  return cause && message === 'fetch failed' ? `could not reach the target node (${cause})` : message;
}

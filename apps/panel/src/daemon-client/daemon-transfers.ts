import type { DaemonTransferRequest } from '@aerie/shared/transfers/transfers-daemon-wire';
import type { DaemonNode, DaemonTransport } from './daemon-transport';

/** Time-out of the transfer calls: each only starts (202) or cancels one; the files move in the background. */
export const transferCallTimeoutMs = 30_000;

/**
 * Wings' transfer calls (reference/wings.md §1.5): the source's `/api/servers/{uuid}/transfer` and the target's
 * `/api/transfers/{uuid}`. Each answers 202; 409 when the daemon is busy (start) or runs no such transfer (cancels).
 */
export class DaemonTransfers {
  readonly #transport: DaemonTransport;

  constructor(transport: DaemonTransport) {
    this.#transport = transport;
  }

  /** `POST /api/servers/{uuid}/transfer` on the source: it stops the server and streams its files to `body.url`. */
  async start(source: DaemonNode, uuid: string, body: DaemonTransferRequest): Promise<void> {
    await this.#call(source, 'POST', `/api/servers/${encodeURIComponent(uuid)}/transfer`, body);
  }

  /** `DELETE /api/servers/{uuid}/transfer` on the source: the outgoing stream stops, the server stays there. */
  async cancel(source: DaemonNode, uuid: string): Promise<void> {
    await this.#call(source, 'DELETE', `/api/servers/${encodeURIComponent(uuid)}/transfer`);
  }

  /** `DELETE /api/transfers/{uuid}` on the target: the incoming transfer ends as failed, its files removed. */
  async cancelIncoming(target: DaemonNode, uuid: string): Promise<void> {
    await this.#call(target, 'DELETE', `/api/transfers/${encodeURIComponent(uuid)}`);
  }

  #call(node: DaemonNode, method: string, path: string, body?: unknown): Promise<unknown> {
    return this.#transport.request(node, method, path, body, transferCallTimeoutMs);
  }
}

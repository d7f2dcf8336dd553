import type { SecretBox } from '@aerie/panel/crypto/secret-box';
import type { DaemonNodeDenyBody } from '@aerie/shared/daemon/deny-wire';
import type { DaemonTransferRequest } from '@aerie/shared/transfers/transfers-daemon-wire';
import { DaemonServer } from './daemon-servers';
import { DaemonTransfers } from './daemon-transfers';
import { type DaemonNode, DaemonTransport } from './daemon-transport';

export { backupCallTimeoutMs } from './daemon-backups';
export { fileCallTimeoutsMs } from './daemon-files';
export type { DaemonServerDetails } from './daemon-servers';
export { transferCallTimeoutMs } from './daemon-transfers';
export {
  type DaemonNode,
  DaemonResponseError,
  type DaemonStream,
  DaemonUnreachableError,
  type DaemonUpload,
} from './daemon-transport';

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
  memory_bytes?: number;
  disk_total_bytes?: number | null;
  disk_free_bytes?: number | null;
}

/**
 * The panel's side of the daemon API (reference/wings.md §1.3), one file per Wings resource: a node's own calls
 * here, a server's through `forServer(node, uuid)` (`daemon-servers.ts`, its files in `daemon-files.ts`, its
 * backups in `daemon-backups.ts`), transfers between nodes in `daemon-transfers.ts`, all over
 * one transport (`daemon-transport.ts`: the node token, a time-out per call, the errors).
 */
export class DaemonClient {
  readonly #transport: DaemonTransport;
  readonly #transfers: DaemonTransfers;

  constructor(secretBox: SecretBox, options: { timeoutMs: number } = { timeoutMs: 5000 }) {
    this.#transport = new DaemonTransport(secretBox, options);
    this.#transfers = new DaemonTransfers(this.#transport);
  }

  /** One server on its node's daemon. */
  forServer(node: DaemonNode, uuid: string): DaemonServer {
    return new DaemonServer(this.#transport, node, uuid);
  }

  /** `GET /api/system`: answers once the daemon is up and accepts this node's token. */
  system(node: DaemonNode): Promise<DaemonSystemInfo> {
    return this.#transport.request(node, 'GET', '/api/system');
  }

  /** `POST /api/servers/{uuid}/transfer` on the source node: it streams the server to `body.url` (202). */
  startTransfer(source: DaemonNode, uuid: string, body: DaemonTransferRequest): Promise<void> {
    return this.#transfers.start(source, uuid, body);
  }

  /** `DELETE /api/servers/{uuid}/transfer` on the source node: the outgoing transfer stops (202; 409 when none). */
  cancelTransfer(source: DaemonNode, uuid: string): Promise<void> {
    return this.#transfers.cancel(source, uuid);
  }

  /** `DELETE /api/transfers/{uuid}` on the target node: the incoming transfer stops (202; 409 when none). */
  cancelIncomingTransfer(target: DaemonNode, uuid: string): Promise<void> {
    return this.#transfers.cancelIncoming(target, uuid);
  }

  /** `POST /api/deny` (Aerie's): a server's `deny` for these users on every server of the node. */
  async denyUsers(node: DaemonNode, userUuids: string[]): Promise<void> {
    await this.#transport.request(node, 'POST', '/api/deny', {
      user_uuids: userUuids,
    } satisfies DaemonNodeDenyBody);
  }
}

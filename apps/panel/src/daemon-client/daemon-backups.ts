import type { DaemonBackupRequest, DaemonRestoreRequest } from '@aerie/shared/backups/backups-daemon-wire';
import type { DaemonNode, DaemonTransport } from './daemon-transport';

/**
 * Time-outs of the backup calls: each only starts (202) or removes one file; the archive is made, uploaded and
 * restored in the background and reported through `/api/remote/backups/*`.
 */
export const backupCallTimeoutMs = 30_000;

/** Wings' `/api/servers/{uuid}/backup*` for one server (reference/wings.md §7). */
export class DaemonServerBackups {
  readonly #transport: DaemonTransport;
  readonly #node: DaemonNode;
  readonly #uuid: string;

  constructor(transport: DaemonTransport, node: DaemonNode, uuid: string) {
    this.#transport = transport;
    this.#node = node;
    this.#uuid = uuid;
  }

  /** `POST …/backup`: the daemon starts archiving (202) and reports the end to `/api/remote/backups/{uuid}`. */
  async create(body: DaemonBackupRequest): Promise<void> {
    await this.#json('POST', '', body);
  }

  /** `POST …/backup/{backup}/restore`: the daemon stops the server and restores in the background (202). */
  async restore(backupUuid: string, body: DaemonRestoreRequest): Promise<void> {
    await this.#json('POST', `/${encodeURIComponent(backupUuid)}/restore`, body);
  }

  /** `DELETE …/backup/{backup}`: removes the node's archive; DaemonResponseError 404 when it has none. */
  async delete(backupUuid: string): Promise<void> {
    await this.#json('DELETE', `/${encodeURIComponent(backupUuid)}`);
  }

  #json(method: string, rest: string, body?: unknown): Promise<unknown> {
    const path = `/api/servers/${encodeURIComponent(this.#uuid)}/backup${rest}`;
    return this.#transport.request(this.#node, method, path, body, backupCallTimeoutMs);
  }
}

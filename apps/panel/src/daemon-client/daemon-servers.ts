import type { DaemonServerDenyBody } from '@aerie/shared/daemon/deny-wire';
import type { DaemonCreateServerBody, DaemonPowerBody } from '@aerie/shared/daemon/remote-wire';
import { DaemonServerBackups } from './daemon-backups';
import { DaemonServerFiles } from './daemon-files';
import type { DaemonNode, DaemonTransport } from './daemon-transport';

/** Wings' `GET /api/servers/{uuid}` (reference/wings.md): the server's state and its live utilization. */
export interface DaemonServerDetails {
  state?: string;
  is_suspended?: boolean;
  /** Aerie daemons only: a transfer is sending the server away. */
  is_transferring?: boolean;
  utilization?: {
    memory_bytes?: number;
    cpu_absolute?: number;
    disk_bytes?: number;
    network?: { rx_bytes?: number; tx_bytes?: number };
    uptime?: number;
    state?: string;
  };
}

/** One server on its node's daemon: Wings' `/api/servers/{uuid}` and what hangs under it. */
export class DaemonServer {
  readonly files: DaemonServerFiles;
  readonly backups: DaemonServerBackups;
  readonly #transport: DaemonTransport;
  readonly #node: DaemonNode;
  readonly #uuid: string;

  constructor(transport: DaemonTransport, node: DaemonNode, uuid: string) {
    this.#transport = transport;
    this.#node = node;
    this.#uuid = uuid;
    this.files = new DaemonServerFiles(transport, node, uuid);
    this.backups = new DaemonServerBackups(transport, node, uuid);
  }

  details(): Promise<DaemonServerDetails> {
    return this.#json('GET', '');
  }

  /** Accepted (202) means queued: the daemon runs the action in the background. */
  async power(action: DaemonPowerBody['action']): Promise<void> {
    await this.#json('POST', '/power', { action } satisfies DaemonPowerBody);
  }

  /** The daemon answers 502 when the server is not running. */
  async commands(commands: string[]): Promise<void> {
    await this.#json('POST', '/commands', { commands });
  }

  /** Creates the server on the daemon, which then fetches its install script and reports the result. */
  async create(startOnCompletion: boolean): Promise<void> {
    const body: DaemonCreateServerBody = { uuid: this.#uuid, start_on_completion: startOnCompletion };
    await this.#transport.request(this.#node, 'POST', '/api/servers', body);
  }

  /** Installs a server the daemon already has (it syncs its configuration first); reported as an install. */
  async install(): Promise<void> {
    await this.#json('POST', '/install');
  }

  /** Runs the install script again; a failure is reported as a failed reinstall. */
  async reinstall(): Promise<void> {
    await this.#json('POST', '/reinstall');
  }

  /**
   * `POST …/ws/deny` (Wings' route; `user_uuids` is Aerie's extension, Wings reads only `jtis`): the daemon
   * refuses the tokens with these jtis, and every websocket token and signed file URL of these users for this
   * server, issued up to now; their open console sockets on it close.
   */
  async deny(body: DaemonServerDenyBody): Promise<void> {
    await this.#json('POST', '/ws/deny', body);
  }

  /** Deletes the server from the daemon: it stops it and removes its files. */
  async destroy(): Promise<void> {
    await this.#json('DELETE', '');
  }

  /** Makes the daemon fetch the server's configuration again and apply it. */
  async sync(): Promise<void> {
    await this.#json('POST', '/sync');
  }

  #json<T>(method: string, rest: string, body?: unknown): Promise<T> {
    const path = `/api/servers/${encodeURIComponent(this.#uuid)}${rest}`;
    return this.#transport.request<T>(this.#node, method, path, body);
  }
}

import type { DaemonCreateServerBody, DaemonPowerBody } from '@aerie/shared/daemon/remote-wire';
import type { SecretBox } from '../crypto/secret-box';
import { daemonAddress } from '../nodes/nodes.service';
import type { NodeRecord } from '../servers/server-record';

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
  system(node: DaemonNode): Promise<Record<string, unknown>> {
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

  /** Makes the daemon refuse websocket tokens with these jtis issued before now. */
  async denyJtis(node: DaemonNode, uuid: string, jtis: string[]): Promise<void> {
    await this.request(node, 'POST', serverPath(uuid, '/ws/deny'), { jtis });
  }

  /** Makes the daemon fetch the server's configuration again and apply it. */
  async sync(node: DaemonNode, uuid: string): Promise<void> {
    await this.request(node, 'POST', serverPath(uuid, '/sync'));
  }

  private async request<T>(node: DaemonNode, method: string, path: string, body?: unknown): Promise<T> {
    const token = this.secretBox.open(node.daemonToken);
    const headers: Record<string, string> = { authorization: `Bearer ${token}`, accept: 'application/json' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    let response: Response;
    try {
      response = await fetch(
        `${daemonAddress({ scheme: node.scheme, fqdn: node.fqdn, daemon_listen: node.daemonListen })}${path}`,
        {
          method,
          headers,
          body: body === undefined ? undefined : JSON.stringify(body),
          signal: AbortSignal.timeout(this.options.timeoutMs),
        },
      );
    } catch (error) {
      throw new DaemonUnreachableError(`${node.name}: ${(error as Error).message}`, { cause: error });
    }
    const text = await response.text();
    const parsed = parse(text);
    if (!response.ok) {
      const message = typeof parsed?.error === 'string' ? parsed.error : `HTTP ${response.status}`;
      throw new DaemonResponseError(response.status, message);
    }
    return (parsed ?? {}) as T;
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

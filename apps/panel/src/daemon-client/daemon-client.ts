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

/**
 * The panel's side of the daemon API. Every call authenticates with `Authorization: Bearer <token id>.<token>`
 * (the node's token, opened from its sealed form) and gives up after `timeoutMs`.
 */
export class DaemonClient {
  constructor(
    private readonly secretBox: SecretBox,
    private readonly options: { timeoutMs: number } = { timeoutMs: 5000 },
  ) {}

  /** @throws DaemonUnreachableError, or DaemonResponseError for a non-2xx answer (404: the daemon has no such server) */
  getServer(node: NodeRecord, uuid: string): Promise<DaemonServerDetails> {
    return this.request(node, 'GET', `/api/servers/${encodeURIComponent(uuid)}`);
  }

  private async request<T>(node: NodeRecord, method: string, path: string): Promise<T> {
    const token = `${node.daemonTokenId}.${this.secretBox.open(node.daemonToken)}`;
    let response: Response;
    try {
      response = await fetch(
        `${daemonAddress({ scheme: node.scheme, fqdn: node.fqdn, daemon_listen: node.daemonListen })}${path}`,
        {
          method,
          headers: { authorization: `Bearer ${token}`, accept: 'application/json' },
          signal: AbortSignal.timeout(this.options.timeoutMs),
        },
      );
    } catch (error) {
      throw new DaemonUnreachableError(`${node.name}: ${(error as Error).message}`, { cause: error });
    }
    const text = await response.text();
    const body = parse(text);
    if (!response.ok) {
      const message = typeof body?.error === 'string' ? body.error : `HTTP ${response.status}`;
      throw new DaemonResponseError(response.status, message);
    }
    return (body ?? {}) as T;
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

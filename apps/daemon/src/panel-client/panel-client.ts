import type { RemoteActivityBody } from '@aerie/shared/activity/remote-activity-wire';
import type {
  RemoteBackupPartsResponse,
  RemoteBackupStatus,
  RemoteRestoreStatus,
} from '@aerie/shared/backups/backups-daemon-wire';
import type {
  DaemonInstallScript,
  DaemonInstallStatus,
  DaemonServerConfiguration,
  DaemonServerConfigurationPage,
} from '@aerie/shared/daemon/remote-wire';
import type { SftpAuthAnswer, SftpAuthBody } from '@aerie/shared/sftp/sftp-wire';
import type { RemoteTransferFailure } from '@aerie/shared/transfers/transfers-daemon-wire';

/** What the daemon asks of the panel (`/api/remote/*`); the server manager and managed servers depend on this. */
export interface PanelApi {
  /** Every server of this node, all pages. */
  listServers(): Promise<(DaemonServerConfiguration & { uuid: string })[]>;
  getServer(uuid: string): Promise<DaemonServerConfiguration>;
  getInstallScript(uuid: string): Promise<DaemonInstallScript>;
  reportInstall(uuid: string, status: DaemonInstallStatus): Promise<void>;
  /** At boot: the panel clears installing/restoring flags this node left behind. */
  resetServers(): Promise<void>;
}

/** What the backups ask of the panel (`/api/remote/backups/*`, wings.md §1.4). */
export interface BackupPanelApi {
  /** `GET /backups/{backup}?size=N`: presigned UploadPart URLs for an archive of `size` bytes (s3 only). */
  getBackupUploadParts(backup: string, size: number): Promise<RemoteBackupPartsResponse>;
  /** `POST /backups/{backup}`: the backup's outcome. */
  reportBackup(backup: string, status: RemoteBackupStatus): Promise<void>;
  /** `POST /backups/{backup}/restore`: the restore's outcome (clears the server's restoring status). */
  reportRestore(backup: string, status: RemoteRestoreStatus): Promise<void>;
}

/** What a transfer tells the panel (`/api/remote/servers/{uuid}/transfer/*`, wings.md §1.5). */
export interface TransferPanelApi {
  /** The target has the server's files: the panel moves the server to this node. */
  reportTransferSuccess(uuid: string): Promise<void>;
  /** Either node: the transfer failed, with why; the panel puts everything back. */
  reportTransferFailure(uuid: string, failure: RemoteTransferFailure): Promise<void>;
}

/** The SFTP server's one question to the panel: may this login in, and with what. */
export interface SftpAuthApi {
  /**
   * `POST /api/remote/sftp/auth`, asked once, never retried (an SFTP client waits on it).
   * @throws PanelRequestError with the status for a refusal (403 credentials, 409 state, 429 throttled)
   */
  authenticateSftp(body: SftpAuthBody): Promise<SftpAuthAnswer>;
}

/** Where the activity outbox ships to. */
export interface ActivityPanelApi {
  /**
   * `POST /api/remote/activity`, asked once: the outbox keeps the rows and tries again later itself.
   * @throws PanelRequestError with the status the panel answered (undefined when it did not answer)
   */
  sendActivity(body: RemoteActivityBody): Promise<void>;
}

export interface PanelClientOptions {
  /** The panel's base URL (PANEL_URL); requests go to `<url>/api/remote/...`. */
  url: string;
  tokenId: string;
  token: string;
  /** One request's time-out. Wings: 30 s. */
  timeoutMs?: number;
  /** Retries stop once this much time has passed since the first attempt. Wings: 30 s. */
  retryForMs?: number;
  /** The first retry's delay, doubled each time up to 12 s. */
  firstRetryDelayMs?: number;
}

/** The panel answered with an error, or could not be reached within the retry time. */
export class PanelRequestError extends Error {
  override name = 'PanelRequestError';
  /** The HTTP status, or undefined when the panel never answered. */
  readonly status: number | undefined;
  constructor(message: string, status?: number) {
    super(message);
    this.status = status;
  }
}

const PER_PAGE = 50;
/** An SFTP login waits on the panel's answer (a password hash to check): not for Wings' 30 s. */
const SFTP_AUTH_TIMEOUT_MS = 10_000;
const MAX_RETRY_DELAY_MS = 12_000;

/** The daemon's HTTP client for the panel's remote API, authenticated as the node (`token_id.token`). */
export class PanelClient
  implements PanelApi, SftpAuthApi, BackupPanelApi, ActivityPanelApi, TransferPanelApi
{
  readonly #base: string;
  readonly #headers: Record<string, string>;
  readonly #timeoutMs: number;
  readonly #retryForMs: number;
  readonly #firstRetryDelayMs: number;

  constructor(options: PanelClientOptions) {
    this.#base = `${options.url.replace(/\/+$/, '')}/api/remote`;
    this.#headers = {
      authorization: `Bearer ${options.tokenId}.${options.token}`,
      accept: 'application/vnd.pterodactyl.v1+json',
      'user-agent': `Aerie Daemon (id:${options.tokenId})`,
    };
    this.#timeoutMs = options.timeoutMs ?? 30_000;
    this.#retryForMs = options.retryForMs ?? 30_000;
    this.#firstRetryDelayMs = options.firstRetryDelayMs ?? 500;
  }

  async listServers(): Promise<(DaemonServerConfiguration & { uuid: string })[]> {
    const first = await this.#request<DaemonServerConfigurationPage>(
      'GET',
      `/servers?page=1&per_page=${PER_PAGE}`,
    );
    const rest = await Promise.all(
      Array.from({ length: Math.max(0, first.meta.last_page - 1) }, (_, i) =>
        this.#request<DaemonServerConfigurationPage>('GET', `/servers?page=${i + 2}&per_page=${PER_PAGE}`),
      ),
    );
    return [first, ...rest].flatMap((page) => page.data);
  }

  getServer(uuid: string): Promise<DaemonServerConfiguration> {
    return this.#request('GET', `/servers/${encodeURIComponent(uuid)}`);
  }

  getInstallScript(uuid: string): Promise<DaemonInstallScript> {
    return this.#request('GET', `/servers/${encodeURIComponent(uuid)}/install`);
  }

  async reportInstall(uuid: string, status: DaemonInstallStatus): Promise<void> {
    await this.#request('POST', `/servers/${encodeURIComponent(uuid)}/install`, status);
  }

  async resetServers(): Promise<void> {
    await this.#request('POST', '/servers/reset');
  }

  getBackupUploadParts(backup: string, size: number): Promise<RemoteBackupPartsResponse> {
    return this.#request('GET', `/backups/${encodeURIComponent(backup)}?size=${size}`);
  }

  async reportBackup(backup: string, status: RemoteBackupStatus): Promise<void> {
    await this.#request('POST', `/backups/${encodeURIComponent(backup)}`, status);
  }

  async reportRestore(backup: string, status: RemoteRestoreStatus): Promise<void> {
    await this.#request('POST', `/backups/${encodeURIComponent(backup)}/restore`, status);
  }

  async reportTransferSuccess(uuid: string): Promise<void> {
    await this.#request('POST', `/servers/${encodeURIComponent(uuid)}/transfer/success`);
  }

  async reportTransferFailure(uuid: string, failure: RemoteTransferFailure): Promise<void> {
    await this.#request('POST', `/servers/${encodeURIComponent(uuid)}/transfer/failure`, failure);
  }

  authenticateSftp(body: SftpAuthBody): Promise<SftpAuthAnswer> {
    return this.#request('POST', '/sftp/auth', body, { retryForMs: 0, timeoutMs: SFTP_AUTH_TIMEOUT_MS });
  }

  async sendActivity(body: RemoteActivityBody): Promise<void> {
    await this.#request('POST', '/activity', body, { retryForMs: 0 });
  }

  /**
   * Retries network failures and 5xx with backoff until `retryForMs` has passed (always once, unless it is 0); a 4xx
   * is final at once.
   */
  async #request<T>(
    method: 'GET' | 'POST',
    path: string,
    body?: unknown,
    options: { retryForMs?: number; timeoutMs?: number } = {},
  ): Promise<T> {
    const retryForMs = options.retryForMs ?? this.#retryForMs;
    const timeoutMs = options.timeoutMs ?? this.#timeoutMs;
    const startedAt = Date.now();
    for (let attempt = 0; ; attempt++) {
      let failure: PanelRequestError;
      try {
        const response = await fetch(`${this.#base}${path}`, {
          method,
          headers:
            body === undefined ? this.#headers : { ...this.#headers, 'content-type': 'application/json' },
          body: body === undefined ? undefined : JSON.stringify(body),
          signal: AbortSignal.timeout(timeoutMs),
        });
        const text = await response.text();
        if (response.ok) return (text === '' ? undefined : JSON.parse(text)) as T;
        failure = new PanelRequestError(
          `The panel answered ${method} /api/remote${path} with HTTP ${response.status}: ${errorDetail(text)}`,
          response.status,
        );
        if (response.status < 500) throw failure;
      } catch (error) {
        if (error instanceof PanelRequestError && error.status !== undefined && error.status < 500)
          throw error;
        failure =
          error instanceof PanelRequestError
            ? error
            : new PanelRequestError(
                `Could not reach the panel at ${this.#base}${path}: ${error instanceof Error ? error.message : String(error)}`,
              );
      }
      const delay = Math.min(this.#firstRetryDelayMs * 2 ** attempt, MAX_RETRY_DELAY_MS);
      // A first attempt that was slow to fail (a reused keep-alive socket reset on a loaded machine) still gets one
      // retry: the budget is for waiting between attempts, not for the first try.
      if (retryForMs === 0 || (attempt > 0 && Date.now() - startedAt + delay > retryForMs)) throw failure;
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }
}

/** An error body's text (the panel's `errors[0].detail`, a daemon's `error`), else the start of the body. */
export function errorDetail(text: string): string {
  try {
    const body = JSON.parse(text) as { errors?: { detail?: string }[]; error?: string };
    const detail = body.errors?.[0]?.detail ?? body.error;
    if (detail) return detail;
  } catch {
    // Not JSON: show the raw start below.
  }
  return text.slice(0, 200) || '(empty body)';
}

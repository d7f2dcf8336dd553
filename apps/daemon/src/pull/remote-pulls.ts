import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FileEntry } from '@aerie/daemon/fs/file-entry';
import { FilesystemError } from '@aerie/daemon/fs/filesystem-error';
import { HttpError } from '@aerie/daemon/http-kit/http-errors';
import type { ManagedServer } from '@aerie/daemon/server/managed-server';
import { type CheckedDestination, checkDestination, fetchRemote, pullError } from './pinned-request';
import { type DestinationPolicy, ownAddresses } from './pull-destinations';
import { PULL_LIMITS, type PullSettings } from './pull-settings';
import {
  dispositionFileName,
  givenFileName,
  pullUrl,
  redactUrl,
  remoteFileName,
  urlFileName,
} from './pull-url';

/** What the panel asks for (Wings' body, `directory` being the deprecated name of `root`). */
export interface PullRequest {
  url: string;
  root: string;
  fileName?: string | undefined;
  useHeader: boolean;
}

/** One download under way: Wings' `{identifier, progress}` (0 to 1; 0 while the size is not known). */
export interface PullProgress {
  identifier: string;
  progress: number;
}

/** Wings' refusal of a fourth download, word for word. */
export const TOO_MANY_PULLS_MESSAGE = `This server has reached its limit of ${PULL_LIMITS.perServer} simultaneous remote file downloads at once. Please wait for one to complete before trying again.`;

interface ActivePull {
  identifier: string;
  written: number;
  size: number | undefined;
  controller: AbortController;
}

export interface StartedPull {
  identifier: string;
  /** Settles when the file is in place (its entry) or the download failed (a 400 HttpError, or the filesystem's). */
  done: Promise<FileEntry>;
}

/**
 * The node's remote downloads (Wings §6.7, and safer): at most 3 per server at once; the destination resolved once
 * and refused when it is not public (pull-destinations.ts) unless DAEMON_PULL_ALLOW opens it, the connection made
 * to that address only, each redirect (5 at most) checked the same way; the bytes reserved against the server's
 * disk limit as they arrive (a Content-Length at once, before any byte is written) and bounded by DAEMON_PULL_MAX_MB;
 * a whole-download and an idle time-out; written under a job journal's temporary name and renamed into place only
 * when whole.
 */
export class RemotePulls {
  readonly #settings: PullSettings;
  readonly #active = new Map<string, Map<string, ActivePull>>();

  constructor(settings: PullSettings) {
    this.#settings = settings;
  }

  /** The downloads under way for `server`. */
  list(server: string): PullProgress[] {
    return [...(this.#active.get(server)?.values() ?? [])].map((pull) => ({
      identifier: pull.identifier,
      progress: pull.size ? Math.min(1, pull.written / pull.size) : 0,
    }));
  }

  /** Stops a download (its partial file is removed); false when there is none by that identifier. */
  cancel(server: string, identifier: string): boolean {
    const pull = this.#active.get(server)?.get(identifier);
    pull?.controller.abort(pullError('The download was cancelled.'));
    return pull !== undefined;
  }

  /**
   * Checks the request and the first destination, then downloads in the background.
   * @throws HttpError 400 for a fourth download, a URL that is not http(s), a bad file name or a refused destination
   */
  async start(server: ManagedServer, request: PullRequest): Promise<StartedPull> {
    const url = pullUrl(request.url);
    const fileName = request.fileName ? givenFileName(request.fileName) : undefined;
    const pulls = this.#active.get(server.uuid) ?? new Map<string, ActivePull>();
    // Counted and taken in one synchronous step: requests fired together cannot all pass.
    if (pulls.size >= PULL_LIMITS.perServer) throw new HttpError(400, TOO_MANY_PULLS_MESSAGE);
    const pull: ActivePull = {
      identifier: randomUUID(),
      written: 0,
      size: undefined,
      controller: new AbortController(),
    };
    pulls.set(pull.identifier, pull);
    this.#active.set(server.uuid, pulls);
    const finish = () => {
      pulls.delete(pull.identifier);
      if (pulls.size === 0 && this.#active.get(server.uuid) === pulls) this.#active.delete(server.uuid);
    };
    const policy: DestinationPolicy = { allow: this.#settings.allow, own: ownAddresses() };
    let first: CheckedDestination;
    try {
      first = await checkDestination(url, policy, this.#settings.resolve);
    } catch (error) {
      finish();
      throw error;
    }
    const done = this.#download(server, pull, { url, first, policy, fileName, request }).finally(finish);
    // The caller may not wait (a background pull): its failure is reported there, never unhandled.
    done.catch(() => undefined);
    return { identifier: pull.identifier, done };
  }

  async #download(
    server: ManagedServer,
    pull: ActivePull,
    job: {
      url: URL;
      first: CheckedDestination;
      policy: DestinationPolicy;
      fileName: string | undefined;
      request: PullRequest;
    },
  ): Promise<FileEntry> {
    const { timeoutMs, idleTimeoutMs, maxBytes } = this.#settings;
    const timer = setTimeout(
      () =>
        pull.controller.abort(
          pullError(`The download took longer than ${Math.round(timeoutMs / 1000)} seconds and was stopped.`),
        ),
      timeoutMs,
    );
    let response: IncomingMessage | undefined;
    try {
      const answer = await fetchRemote(job.url, {
        policy: job.policy,
        resolve: this.#settings.resolve,
        first: job.first,
        signal: pull.controller.signal,
        idleTimeoutMs,
      });
      response = answer.response;
      const name =
        job.fileName ??
        (job.request.useHeader
          ? remoteFileName(dispositionFileName(response.headers['content-disposition']))
          : undefined) ??
        urlFileName(answer.url);
      const plainName = name === undefined ? undefined : givenFileNameOrUndefined(name);
      if (plainName === undefined) {
        throw pullError('The URL does not name a file: give the file a name.');
      }
      const size = declaredSize(response.headers['content-length']);
      if (maxBytes > 0 && size !== undefined && size > maxBytes) {
        throw tooLarge(maxBytes);
      }
      pull.size = size;
      const files = await server.files();
      const target = `${job.request.root.replace(/\/+$/, '')}/${plainName}`;
      return await files.writeFile(target, counted(response, pull, size, maxBytes), size, { job: 'pull' });
    } catch (error) {
      if (error instanceof HttpError || error instanceof FilesystemError) throw error;
      // A cut connection and the like: said plainly, never with the URL's credentials.
      const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
      throw pullError(`Could not download ${redactUrl(job.url)}: ${reason}.`);
    } finally {
      clearTimeout(timer);
      response?.destroy();
    }
  }
}

/** Remote names pass the same rule as given ones; one that fails is not used (urlFileName already cleaned it). */
function givenFileNameOrUndefined(name: string): string | undefined {
  try {
    return givenFileName(name);
  } catch {
    return undefined;
  }
}

function declaredSize(header: string | undefined): number | undefined {
  return header !== undefined && /^\d{1,15}$/.test(header) ? Number(header) : undefined;
}

/** `10240 MiB`, or `64 KiB` under a MiB. */
const sizeText = (bytes: number) =>
  bytes >= 1024 * 1024 ? `${Math.round(bytes / 1024 / 1024)} MiB` : `${Math.round(bytes / 1024)} KiB`;

const tooLarge = (maxBytes: number) =>
  pullError(`The file is larger than this node allows a download to be (${sizeText(maxBytes)}).`);

/**
 * The body's bytes as they arrive, counted for progress; fails once past the node's maximum, and at the end when
 * fewer bytes came than the Content-Length said (the connection was cut: the file is not whole).
 */
async function* counted(
  body: IncomingMessage,
  pull: ActivePull,
  size: number | undefined,
  maxBytes: number,
): AsyncGenerator<Uint8Array> {
  for await (const chunk of body) {
    pull.written += (chunk as Buffer).length;
    if (maxBytes > 0 && pull.written > maxBytes) {
      throw tooLarge(maxBytes);
    }
    yield chunk as Buffer;
  }
  if (size !== undefined && pull.written < size) {
    throw pullError('The connection ended before the whole file arrived.');
  }
}

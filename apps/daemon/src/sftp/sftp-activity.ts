import { isIP } from 'node:net';
import { displayPath, pathComponents } from '@aerie/daemon/fs/jail-path';
import type { NodeReportedActivityEvent } from '@aerie/shared/activity/activity-events';
import type { RemoteActivityRow } from '@aerie/shared/activity/remote-activity-wire';

/** Where rows go: the daemon's activity outbox. */
export interface ActivityRecorder {
  append(row: RemoteActivityRow): void;
}

/** Files remembered as reported, per connection; past this the memory starts over (a file may be said twice). */
const MAX_REMEMBERED = 10_000;

/**
 * What one logged-in SFTP connection did, as the activity log's `server:sftp.*` rows (wings.md §8): its user, its
 * server and its client's address on each. Called only once an operation succeeded. A file written is reported when
 * its handle closes, once per file per connection however many times it was opened, not per packet; paths are the
 * server's own (`/world/level.dat`). The outbox merges a burst into one row per event (see activity-batch.ts).
 */
export class SftpActivity {
  readonly #recorder: ActivityRecorder;
  readonly #who: { user: string; server: string; ip: string | null };
  readonly #reported = new Set<string>();

  constructor(recorder: ActivityRecorder, who: { userUuid: string; serverUuid: string; ip: string }) {
    this.#recorder = recorder;
    this.#who = { user: who.userUuid, server: who.serverUuid, ip: isIP(who.ip) === 0 ? null : who.ip };
  }

  loggedIn(): void {
    this.#record('server:sftp.login', {});
  }

  /** A file opened to change it was closed: `created` when the open made it. */
  closedAfterWrite(path: string, created: boolean): void {
    const event = created ? 'server:sftp.create' : 'server:sftp.write';
    const file = serverPath(path);
    const key = `${event}\0${file}`;
    if (this.#reported.has(key)) return;
    if (this.#reported.size >= MAX_REMEMBERED) this.#reported.clear();
    this.#reported.add(key);
    this.#record(event, { files: [file] });
  }

  createdDirectory(path: string): void {
    this.#record('server:sftp.create-directory', { files: [serverPath(path)] });
  }

  renamed(from: string, to: string): void {
    // Whatever is at the new name now was put there, not written: a later write to it is reported again.
    this.#reported.clear();
    this.#record('server:sftp.rename', { files: [{ from: serverPath(from), to: serverPath(to) }] });
  }

  deleted(path: string): void {
    this.#reported.clear();
    this.#record('server:sftp.delete', { files: [serverPath(path)] });
  }

  #record(event: NodeReportedActivityEvent, metadata: Record<string, unknown>): void {
    this.#recorder.append({ ...this.#who, event, metadata, timestamp: new Date().toISOString() });
  }
}

/** The path as the server's files show it (`world//a/../b` → `/world/b`). */
const serverPath = (path: string) => displayPath(pathComponents(path));

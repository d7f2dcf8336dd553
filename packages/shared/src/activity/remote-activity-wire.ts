import type { NodeReportedActivityEvent } from './activity-events';

/**
 * `POST /api/remote/activity` (reference/wings.md §1.4): what a node did for a user, shipped from its outbox.
 * `user` and `server` are uuids, `timestamp` RFC 3339, `ip` the client's address.
 */
export interface RemoteActivityRow {
  user: string;
  server: string;
  event: NodeReportedActivityEvent;
  /** `{files: [path, …]}`; a rename `{files: [{from, to}, …]}`; a login `{}`. */
  metadata: Record<string, unknown> | null;
  ip: string | null;
  timestamp: string;
}

export interface RemoteActivityBody {
  data: RemoteActivityRow[];
}

/** Bounds both sides keep: the panel refuses a body past them, the daemon never builds one. */
export const remoteActivityLimits = {
  /** Rows per request (Wings' `activity_send_count`). */
  rowsPerRequest: 100,
  /** A row's metadata as JSON, in characters. */
  metadataLength: 16_384,
  /** Nesting of a row's metadata: `{files: [{from, to}]}` is 3. */
  metadataDepth: 4,
  /** A path in `files` (Linux's PATH_MAX). */
  pathLength: 4096,
  /** Paths merged into one row. */
  filesPerRow: 50,
  /** What the daemon puts in one request, well under the panel's 1 MiB JSON body limit. */
  requestLength: 768 * 1024,
} as const;

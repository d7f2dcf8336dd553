import {
  remoteActivityLimits as limits,
  type RemoteActivityRow,
} from '@aerie/shared/activity/remote-activity-wire';
import type { OutboxEntry } from './activity-outbox';

export interface ActivityBatch {
  /** What goes to the panel: at most `rowsPerRequest` rows, `requestLength` characters of JSON. */
  rows: RemoteActivityRow[];
  /** The outbox rows it stands for, removed once the panel has answered. */
  seqs: Set<number>;
}

interface Group {
  row: RemoteActivityRow;
  files: unknown[];
  seen: Set<string>;
  length: number;
}

/**
 * The next request from the oldest waiting rows, merged as Wings' SFTP cron merges them: rows of one user, server,
 * address and event within the same minute become one row listing every path (each path once), so deleting a
 * folder of 500 files is one entry, not 500. A group that is full (`filesPerRow` paths, or `metadataLength`) starts
 * another. Rows are taken in order, up to the first that no longer fits.
 */
export function nextBatch(entries: readonly OutboxEntry[]): ActivityBatch {
  const groups = new Map<string, Group>();
  const rows: Group[] = [];
  const seqs = new Set<number>();
  let length = '{"data":[]}'.length;
  for (const { seq, row } of entries) {
    const files = Array.isArray(row.metadata?.files) ? (row.metadata.files as unknown[]) : undefined;
    const key = files && groupKey(row);
    const group = key === undefined ? undefined : groups.get(key);
    if (group && files) {
      const added = files.filter((file) => !group.seen.has(JSON.stringify(file)));
      const extra = added.reduce<number>((sum, file) => sum + JSON.stringify(file).length + 1, 0);
      if (
        group.files.length + added.length <= limits.filesPerRow &&
        group.length + extra <= limits.metadataLength &&
        length + extra <= limits.requestLength
      ) {
        for (const file of added) {
          group.seen.add(JSON.stringify(file));
          group.files.push(file);
        }
        group.length += extra;
        length += extra;
        seqs.add(seq);
        continue;
      }
    }
    const rowLength = JSON.stringify(row).length + 1;
    if (rows.length >= limits.rowsPerRequest || length + rowLength > limits.requestLength) break;
    const fresh: Group = {
      row: files ? { ...row, metadata: { ...row.metadata, files: [...files] } } : row,
      files: [],
      seen: new Set(files?.map((file) => JSON.stringify(file))),
      length: JSON.stringify(row.metadata).length,
    };
    fresh.files = (fresh.row.metadata?.files as unknown[] | undefined) ?? [];
    if (key !== undefined) groups.set(key, fresh);
    rows.push(fresh);
    seqs.add(seq);
    length += rowLength;
  }
  return { rows: rows.map((group) => group.row), seqs };
}

/** Rows merge within the minute their first one began, as Wings truncates timestamps to the minute. */
function groupKey(row: RemoteActivityRow): string {
  const minute = Math.floor(Date.parse(row.timestamp) / 60_000);
  return JSON.stringify([row.user, row.server, row.ip, row.event, minute]);
}

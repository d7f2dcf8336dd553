import { toWireDate } from '@aerie/panel/db/dialect';
import type { DaemonFileStat, FileListResponse, FileObject } from '@aerie/shared/files/file-wire';

/**
 * Pterodactyl's `file_object` from one daemon stat. Fields a daemon leaves out get Pterodactyl's defaults (a
 * file, not a symlink, `application/octet-stream`); a missing or unreadable time reads as `now`, as Carbon's
 * parse of an empty string does.
 */
export function presentFileObject(stat: Partial<DaemonFileStat>, now: Date): FileObject {
  return {
    object: 'file_object',
    attributes: {
      name: stat.name ?? '',
      mode: stat.mode ?? '',
      mode_bits: stat.mode_bits ?? '',
      size: stat.size ?? 0,
      is_file: stat.file ?? true,
      is_symlink: stat.symlink ?? false,
      mimetype: stat.mime ?? 'application/octet-stream',
      created_at: wireTime(stat.created, now),
      modified_at: wireTime(stat.modified, now),
    },
  };
}

/** The daemon's listing as a `list` of `file_object`, in the daemon's order (folders first, then by name). */
export const presentFileList = (stats: Partial<DaemonFileStat>[], now: Date): FileListResponse => ({
  object: 'list',
  data: stats.map((stat) => presentFileObject(stat, now)),
});

function wireTime(value: string | undefined, now: Date): string {
  const time = value ? new Date(value) : now;
  return toWireDate(Number.isNaN(time.getTime()) ? now : time);
}

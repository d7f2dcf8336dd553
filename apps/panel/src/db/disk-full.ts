/**
 * Whether a failed write failed because the disk under the database (or the panel's data directory) is full,
 * whatever the driver. Such a failure is the operator's to fix and passes on its own once space is freed, so the
 * panel answers it with a plain sentence instead of a 500 (http/error-handler.ts).
 */
export function isDiskFull(error: unknown): boolean {
  // Drivers and Kysely hand the error over as it is; a wrapper of ours may carry it as its cause.
  for (let current = error, depth = 0; current && depth < 4; depth += 1) {
    if (isDiskFullItself(current)) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/** MySQL/MariaDB errors that carry the system's errno in their text: "Errcode: 28", "Got error 28 from …". */
const MYSQL_ERRNO_CARRIERS = new Set([3, 1026, 1030]);
const ENOSPC_TEXT = /(?:errcode|errno|error)[:\s"]+28\b|no space left on device/i;

function isDiskFullItself(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, errno, message } = error as { code?: unknown; errno?: unknown; message?: unknown };
  if (typeof code === 'string') {
    // better-sqlite3: SQLITE_FULL, or an I/O error where SQLite could not grow the WAL index or sync.
    if (code === 'SQLITE_FULL' || code === 'SQLITE_IOERR' || code.startsWith('SQLITE_IOERR_')) return true;
    // PostgreSQL's disk_full; mysql2's names for "Disk full" and InnoDB's "The table is full" (its tablespace
    // cannot grow); Node's own when the panel writes a file.
    if (['53100', 'ER_DISK_FULL', 'ER_RECORD_FILE_FULL', 'ENOSPC', 'EDQUOT'].includes(code)) return true;
  }
  if (typeof errno === 'number') {
    if (errno === 1021 || errno === 1114) return true;
    if (MYSQL_ERRNO_CARRIERS.has(errno) && typeof message === 'string' && ENOSPC_TEXT.test(message))
      return true;
  }
  return false;
}

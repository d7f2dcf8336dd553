import { fileLimits } from '@aerie/shared/files/file-wire';
import { formatDate, formatRelative } from '@/lib/format-dates';

/** "3 minutes ago" within 48 hours, a date after that (spec §9). */
export function formatModified(modified: Date, now: number = Date.now()): string {
  if (Math.abs(now - modified.getTime()) <= fileLimits.relativeTimeWindowMs) {
    return formatRelative(modified, { strict: false });
  }
  return formatDate(modified, 'MMM do, yyyy h:mma');
}

import { fileLimits } from '@aerie/shared/files/file-wire';
import { format, formatDistanceToNow } from 'date-fns';

/** "3 minutes ago" within 48 hours, a date after that (spec §9). */
export function formatModified(modified: Date, now: number = Date.now()): string {
  if (Math.abs(now - modified.getTime()) <= fileLimits.relativeTimeWindowMs) {
    return formatDistanceToNow(modified, { addSuffix: true });
  }
  return format(modified, 'MMM do, yyyy h:mma');
}

import cronstrue from 'cronstrue';
import type { ScheduleCron } from '@/features/schedules/api/schedules';
import { cronLocale } from '@/lib/format-language';

/**
 * The cron expression in words ("Every 5 minutes", "At 04:00 AM, only on Monday") in the page's language, by cronstrue; null when it
 * cannot say, e.g. while a field is empty or out of range. Only a help: the panel decides what is valid when the
 * schedule is saved. A field holding a space would shift the ones after it, so it is never described.
 */
export function describeCron(cron: ScheduleCron): string | null {
  const fields = [cron.minute, cron.hour, cron.dayOfMonth, cron.month, cron.dayOfWeek].map((field) =>
    field.trim(),
  );
  if (fields.some((field) => field === '' || /\s/.test(field))) return null;
  try {
    return cronstrue.toString(fields.join(' '), {
      throwExceptionOnParseError: true,
      verbose: false,
      locale: cronLocale(),
    });
  } catch {
    return null;
  }
}

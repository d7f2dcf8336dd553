import { formatDate, formatRelative } from '@/lib/format-dates';

/** The full date shown on hover (Pterodactyl's schedule format). */
const fullDateFormat = "MMM do 'at' h:mma";

/** When a schedule ran or will run, relative ("in 4 minutes", "2 hours ago") with the date on hover. */
export function RunTime({ at, fallback }: { at: Date | null; fallback: string }) {
  if (!at) return <span className="text-ink-400">{fallback}</span>;
  return (
    <time dateTime={at.toISOString()} title={formatDate(at, fullDateFormat)}>
      {formatRelative(at)}
    </time>
  );
}

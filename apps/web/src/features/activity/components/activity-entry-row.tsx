import { useTranslation } from 'react-i18next';
import { Avatar } from '@/components/ui/avatar';
import { CogIcon } from '@/components/ui/icons';
import type { ActivityEntry } from '@/features/activity/api/activity';
import { describeActivity } from '@/features/activity/utils/describe-activity';
import { formatDate, formatRelative } from '@/lib/format-dates';

/** The full date shown on hover over the relative time (Pterodactyl's format). */
const fullDateFormat = 'MMM do, yyyy H:mm:ss';

interface ActivityEntryRowProps {
  entry: ActivityEntry;
  /** Shows only entries of this event name. */
  onFilter: (event: string) => void;
}

/**
 * One entry: who (or System), the event name (a click filters by it), an API badge for entries made with an API
 * key, the readable description, the address when the panel gives it, and when, relative with the full date on
 * hover. Properties beyond what the description says open under Details.
 */
export function ActivityEntryRow({ entry, onFilter }: ActivityEntryRowProps) {
  const { t } = useTranslation('activity');
  const { actor } = entry;
  return (
    <li className="flex gap-4 rounded-lg border border-ink-800 bg-ink-900 px-4 py-3">
      {actor ? (
        <Avatar image={actor.image} email={actor.email} className="mt-0.5" />
      ) : (
        <span
          aria-hidden="true"
          className="mt-0.5 flex size-10 shrink-0 items-center justify-center rounded-full bg-ink-700 text-ink-300"
        >
          <CogIcon className="size-5" />
        </span>
      )}
      <div className="min-w-0 flex-1">
        <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
          <span className="text-sm font-semibold text-ink-50">{actor?.username ?? t('log.system')}</span>
          <span aria-hidden="true" className="text-ink-600">
            —
          </span>
          <button
            type="button"
            onClick={() => onFilter(entry.event)}
            aria-label={t('log.filter', { event: entry.event })}
            title={t('log.filter', { event: entry.event })}
            className="rounded font-mono text-xs text-ink-300 transition-colors hover:text-brand-300 focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-500/50"
          >
            {entry.event}
          </button>
          {entry.isApi && (
            <span
              title={t('log.api_hint')}
              className="rounded bg-sky-500/15 px-1.5 py-0.5 text-[10px] font-bold uppercase tracking-wider text-sky-300"
            >
              {t('log.api')}
            </span>
          )}
        </div>
        <p className="mt-1 break-words text-sm text-ink-200">{describeActivity(t, entry)}</p>
        <p className="mt-1 text-xs text-ink-400">
          {entry.ip && (
            <>
              <span data-testid="activity-ip">{entry.ip}</span>
              <span aria-hidden="true" className="text-ink-600">
                {' | '}
              </span>
            </>
          )}
          <time dateTime={entry.timestamp.toISOString()} title={formatDate(entry.timestamp, fullDateFormat)}>
            {formatRelative(entry.timestamp)}
          </time>
        </p>
        {entry.hasAdditionalMetadata && (
          <details className="mt-2 text-xs text-ink-400">
            <summary className="cursor-pointer select-none hover:text-ink-200">{t('log.details')}</summary>
            <pre className="mt-2 overflow-x-auto rounded-md bg-ink-950 p-3 font-mono text-ink-200">
              {JSON.stringify(entry.properties, null, 2)}
            </pre>
          </details>
        )}
      </div>
    </li>
  );
}

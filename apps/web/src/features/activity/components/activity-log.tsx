import { useQuery } from '@tanstack/react-query';
import { useCallback, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { CloseIcon, FilterIcon } from '@/components/ui/icons';
import { Pagination } from '@/components/ui/pagination';
import { SpinnerBlock } from '@/components/ui/spinner';
import { type ActivitySource, activityQueryOptions } from '@/features/activity/api/activity';
import { ActivityEntryRow } from '@/features/activity/components/activity-entry-row';
import { usePageParam } from '@/hooks/use-page-param';
import { flashActions } from '@/stores/flash-store';

interface ActivityLogProps {
  source: ActivitySource;
  /** Where a failed load flashes. */
  flashKey: string;
}

/** `?event=`: the event filter kept in the address beside `?page=`. */
function useEventFilter(): [string, (event: string) => void] {
  const [params, setParams] = useSearchParams();
  const event = params.get('event') ?? '';
  const setEvent = useCallback(
    (next: string) =>
      setParams(
        (previous) => {
          const updated = new URLSearchParams(previous);
          // Another filter starts at the first page.
          updated.delete('page');
          if (next) updated.set('event', next);
          else updated.delete('event');
          return updated;
        },
        { replace: true },
      ),
    [setParams],
  );
  return [event, setEvent];
}

/**
 * An activity log, newest first, 25 entries a page with the dashboard's pagination (`?page=`), filtered by event
 * name on request (`?event=`, the panel's `filter[event]`). The event texts are the `activity` namespace, loaded
 * the first time a log opens.
 */
export function ActivityLog({ source, flashKey }: ActivityLogProps) {
  const { t, ready } = useTranslation('activity', { useSuspense: false });
  const [page, setPage] = usePageParam();
  const [event, setEvent] = useEventFilter();
  const log = useQuery(activityQueryOptions(source, { page, event: event || undefined }));

  useEffect(() => {
    if (log.error) flashActions().clearAndAddHttpError({ key: flashKey, error: log.error });
    else flashActions().clearFlashes(flashKey);
  }, [log.error, flashKey]);

  // A page past the end (an old link, a narrower filter) starts over at page 1.
  const emptyPastFirst = !log.isPlaceholderData && log.data?.items.length === 0 && page > 1;
  useEffect(() => {
    if (emptyPastFirst) setPage(1);
  }, [emptyPastFirst, setPage]);

  if (!ready || !log.data) return log.isError ? null : <SpinnerBlock />;
  const { items, pagination } = log.data;

  return (
    <>
      {event && (
        <div className="mb-4 flex flex-wrap items-center gap-2 text-sm text-ink-300">
          <FilterIcon className="size-4 text-ink-400" />
          <span>{t('log.filtered', { event })}</span>
          <button
            type="button"
            onClick={() => setEvent('')}
            className="inline-flex items-center gap-1 rounded-md bg-ink-800 px-2 py-1 text-xs font-semibold text-ink-200 transition-colors hover:bg-ink-700 hover:text-white"
          >
            <CloseIcon className="size-3.5" />
            {t('log.clear_filter')}
          </button>
        </div>
      )}
      {items.length === 0 ? (
        <p className="rounded-xl border border-dashed border-ink-700 bg-ink-900/40 px-6 py-16 text-center text-sm text-ink-300">
          {source.kind === 'account' ? t('log.empty_account') : t('log.empty_server')}
        </p>
      ) : (
        <ul aria-label={t('log.label')} className="space-y-2">
          {items.map((entry) => (
            <ActivityEntryRow key={entry.id} entry={entry} onFilter={setEvent} />
          ))}
        </ul>
      )}
      <Pagination
        className="mt-6"
        currentPage={pagination.currentPage}
        totalPages={pagination.totalPages}
        onPageSelect={setPage}
      />
    </>
  );
}

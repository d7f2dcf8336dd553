import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Pagination } from '@/components/ui/pagination';
import { SpinnerBlock } from '@/components/ui/spinner';
import { serversQueryOptions } from '@/features/servers/api/servers';
import { ServerCard } from '@/features/servers/components/server-card';
import { flashActions } from '@/stores/flash-store';

interface ServerListProps {
  /** Lists other people's servers (root admins). */
  showAll: boolean;
  page: number;
  setPage: (page: number) => void;
}

/** The dashboard's servers, a page at a time. */
export function ServerList({ showAll, page, setPage }: ServerListProps) {
  const { t } = useTranslation('dashboard');
  const servers = useQuery(serversQueryOptions({ page, type: showAll ? 'admin' : undefined }));

  useEffect(() => {
    if (servers.error) flashActions().clearAndAddHttpError({ key: 'dashboard', error: servers.error });
    else flashActions().clearFlashes('dashboard');
  }, [servers.error]);

  // A page past the end (servers were removed, or an old link) starts over at page 1.
  const emptyPastFirst = !servers.isPlaceholderData && servers.data?.items.length === 0 && page > 1;
  useEffect(() => {
    if (emptyPastFirst) setPage(1);
  }, [emptyPastFirst, setPage]);

  if (!servers.data) return servers.isPending ? <SpinnerBlock /> : null;
  const { items, pagination } = servers.data;
  if (items.length === 0) {
    return (
      <p className="rounded-xl border border-dashed border-ink-700 bg-ink-900/40 px-6 py-16 text-center text-sm text-ink-300">
        {showAll ? t('empty_others') : t('empty')}
      </p>
    );
  }
  return (
    <>
      <ul className="space-y-3">
        {items.map((server) => (
          <li key={server.uuid}>
            <ServerCard server={server} />
          </li>
        ))}
      </ul>
      <Pagination
        className="mt-6"
        currentPage={pagination.currentPage}
        totalPages={pagination.totalPages}
        onPageSelect={setPage}
      />
    </>
  );
}

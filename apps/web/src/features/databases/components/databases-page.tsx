import { hasPermission } from '@aerie/shared/permissions/can';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { SpinnerBlock } from '@/components/ui/spinner';
import { serverDatabasesQueryOptions } from '@/features/databases/api/databases';
import { CreateDatabaseModal } from '@/features/databases/components/create-database-modal';
import { DatabaseRow } from '@/features/databases/components/database-row';
import { databasesFlashKey } from '@/features/databases/components/databases-flash-keys';
import { Can } from '@/features/servers/components/can';
import { useServer, useServerPermissions } from '@/features/servers/hooks/use-server';
import { flashActions } from '@/stores/flash-store';

/** Whether the modal is open, or still fading out. */
type ModalState = 'open' | 'closing' | null;

const notice =
  'rounded-xl border border-dashed border-ink-700 bg-ink-900/40 px-6 py-16 text-center text-sm text-ink-300';

/**
 * The Databases page's content (spec §2 "Databases"): the server's databases (their passwords asked for with
 * database.view_password), the spec's two empty texts, "{count} of {limit}" while the limit is above 0, and New
 * Database (database.create) while the limit is above the count. Load errors flash under `databases`.
 */
export function DatabasesPage() {
  const { t } = useTranslation('server');
  const server = useServer();
  const withPasswords = hasPermission(useServerPermissions(), 'database.view_password');
  const list = useQuery(serverDatabasesQueryOptions(server.id, withPasswords));
  const [modal, setModal] = useState<ModalState>(null);
  const limit = server.featureLimits.databases;

  useEffect(() => {
    if (list.error) flashActions().clearAndAddHttpError({ key: databasesFlashKey, error: list.error });
  }, [list.error]);

  if (!list.data) return list.isError ? null : <SpinnerBlock />;
  const databases = list.data;

  return (
    <>
      {databases.length > 0 ? (
        <ul aria-label={t('databases.list_label')} className="space-y-2">
          {databases.map((database) => (
            <DatabaseRow key={database.id} database={database} />
          ))}
        </ul>
      ) : (
        <p className={notice}>{limit > 0 ? t('databases.empty') : t('databases.limit_zero')}</p>
      )}
      {limit > 0 && (
        <div className="mt-6 flex flex-col items-stretch gap-4 sm:flex-row sm:items-center sm:justify-end">
          <p className="text-sm text-ink-300">{t('databases.count', { count: databases.length, limit })}</p>
          {limit > databases.length && (
            <Can action="database.create">
              <Button onClick={() => setModal('open')}>{t('databases.new')}</Button>
            </Can>
          )}
        </div>
      )}
      {modal && (
        <CreateDatabaseModal
          visible={modal === 'open'}
          onClose={() => setModal('closing')}
          onDismissed={() => setModal(null)}
        />
      )}
    </>
  );
}

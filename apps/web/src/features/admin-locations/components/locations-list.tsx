import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AdminPage } from '@/components/admin/admin-page';
import { type AdminColumn, AdminTable } from '@/components/admin/admin-table';
import { Button } from '@/components/ui/button';
import { ConfirmationModal } from '@/components/ui/confirmation-modal';
import { MessageBox } from '@/components/ui/message-box';
import { Pagination } from '@/components/ui/pagination';
import { SpinnerBlock } from '@/components/ui/spinner';
import {
  type AdminLocation,
  locationsQueryOptions,
  useDeleteLocation,
} from '@/features/admin-locations/api/locations';
import { LocationModal } from '@/features/admin-locations/components/location-modal';
import { useAdminCan } from '@/hooks/use-admin-can';
import { usePageParam } from '@/hooks/use-page-param';
import { errorToMessage } from '@/lib/api-client';
import { flashActions } from '@/stores/flash-store';

const flashKey = 'admin:locations';

/** Every location with its node count; create, edit and delete (refused while it holds nodes). */
export function LocationsList() {
  const { t } = useTranslation('admin');
  const [page, setPage] = usePageParam();
  const locations = useQuery(locationsQueryOptions(page));
  const [editing, setEditing] = useState<{ location: AdminLocation | null } | null>(null);
  const [deleting, setDeleting] = useState<AdminLocation | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);
  const remove = useDeleteLocation();
  const canWrite = useAdminCan('locations.write');

  useEffect(() => {
    if (locations.error) flashActions().clearAndAddHttpError({ key: flashKey, error: locations.error });
  }, [locations.error]);

  const askToDelete = (location: AdminLocation) => {
    setRefusal(null);
    setDeleting(location);
    setConfirming(true);
  };

  const handleDelete = async () => {
    if (!deleting) return;
    try {
      await remove.mutateAsync(deleting.id);
      flashActions().clearFlashes(flashKey);
      flashActions().addFlash({
        key: flashKey,
        type: 'success',
        message: t('locations.deleted', { short: deleting.short }),
      });
      setConfirming(false);
    } catch (error) {
      setRefusal(errorToMessage(error));
    }
  };

  const actionsColumn: AdminColumn<AdminLocation> = {
    key: 'actions',
    header: <span className="sr-only">{t('locations.columns.actions')}</span>,
    className: 'text-end',
    cell: (row) => (
      <div className="flex justify-end gap-2">
        <Button
          size="sm"
          variant="secondary"
          aria-label={t('locations.edit', { short: row.short })}
          onClick={() => setEditing({ location: row })}
        >
          {t('locations.edit_button')}
        </Button>
        <Button
          size="sm"
          variant="danger"
          aria-label={t('locations.delete', { short: row.short })}
          onClick={() => askToDelete(row)}
        >
          {t('actions.delete')}
        </Button>
      </div>
    ),
  };

  const columns: AdminColumn<AdminLocation>[] = [
    { key: 'id', header: t('locations.columns.id'), cell: (row) => row.id, className: 'w-16 text-ink-400' },
    {
      key: 'short',
      header: t('locations.columns.short'),
      cell: (row) => <code className="font-medium text-ink-50">{row.short}</code>,
    },
    { key: 'long', header: t('locations.columns.long'), cell: (row) => row.long ?? '' },
    {
      key: 'nodes',
      header: t('locations.columns.nodes'),
      cell: (row) => row.nodeCount ?? '—',
      className: 'text-end',
    },
    // Edit and delete are all the row offers: without locations.write the column goes.
    ...(canWrite ? [actionsColumn] : []),
  ];

  const data = locations.data;
  return (
    <AdminPage
      title={t('locations.title')}
      description={t('locations.description')}
      flashKey={flashKey}
      actions={
        canWrite && <Button onClick={() => setEditing({ location: null })}>{t('locations.create')}</Button>
      }
    >
      {!data ? (
        locations.isPending && <SpinnerBlock />
      ) : (
        <>
          <AdminTable
            caption={t('locations.title')}
            columns={columns}
            rows={data.items}
            rowKey={(row) => row.id}
            empty={t('locations.empty')}
          />
          <Pagination
            className="mt-4"
            currentPage={data.currentPage}
            totalPages={data.totalPages}
            onPageSelect={setPage}
          />
        </>
      )}
      <LocationModal
        visible={editing !== null}
        location={editing?.location ?? null}
        onClose={() => setEditing(null)}
        onSaved={(location, created) => {
          flashActions().clearFlashes(flashKey);
          flashActions().addFlash({
            key: flashKey,
            type: 'success',
            message: created
              ? t('locations.created', { short: location.short })
              : t('locations.updated', { short: location.short }),
          });
          setEditing(null);
        }}
      />
      <ConfirmationModal
        visible={confirming}
        onClose={() => setConfirming(false)}
        title={t('locations.delete_title')}
        confirmLabel={t('locations.delete_confirm')}
        cancelLabel={t('actions.cancel')}
        onConfirm={() => void handleDelete()}
        isLoading={remove.isPending}
        notice={
          refusal && (
            <MessageBox type="error" title={t('locations.delete_refused')} className="mb-4">
              {refusal}
            </MessageBox>
          )
        }
      >
        {t('locations.delete_text', { short: deleting?.short ?? '' })}
      </ConfirmationModal>
    </AdminPage>
  );
}

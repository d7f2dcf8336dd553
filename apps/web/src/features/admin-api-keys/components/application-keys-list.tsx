import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { AdminPage } from '@/components/admin/admin-page';
import { AdminTable } from '@/components/admin/admin-table';
import { buttonClasses } from '@/components/ui/button';
import { ConfirmationModal } from '@/components/ui/confirmation-modal';
import { CopyOnClick } from '@/components/ui/copy-on-click';
import { TrashIcon } from '@/components/ui/icons';
import { SpinnerBlock } from '@/components/ui/spinner';
import {
  type ApplicationKey,
  applicationKeyKeys,
  applicationKeysQueryOptions,
  revokeApplicationKey,
} from '@/features/admin-api-keys/api/application-keys';
import { formatDate } from '@/lib/format-dates';
import { flashActions } from '@/stores/flash-store';

export const applicationKeysFlashKey = 'admin:api-keys';

const dateFormat = 'MMM do, yyyy HH:mm';

/** /admin/api: the application API keys, each revocable after a confirmation. */
export function ApplicationKeysList() {
  const { t } = useTranslation('admin');
  const queryClient = useQueryClient();
  const keys = useQuery(applicationKeysQueryOptions());
  const [revoking, setRevoking] = useState<ApplicationKey | null>(null);
  const [confirming, setConfirming] = useState(false);
  const revoke = useMutation({ mutationFn: revokeApplicationKey });

  useEffect(() => {
    if (keys.error) flashActions().clearAndAddHttpError({ key: applicationKeysFlashKey, error: keys.error });
  }, [keys.error]);

  const handleConfirm = async () => {
    if (!revoking) return;
    flashActions().clearFlashes(applicationKeysFlashKey);
    try {
      await revoke.mutateAsync(revoking.identifier);
      queryClient.setQueryData<ApplicationKey[]>(applicationKeyKeys.all, (list) =>
        list?.filter((key) => key.identifier !== revoking.identifier),
      );
      flashActions().addFlash({
        key: applicationKeysFlashKey,
        type: 'success',
        message: t('api_keys.revoked'),
      });
    } catch (error) {
      flashActions().clearAndAddHttpError({ key: applicationKeysFlashKey, error });
    }
    setConfirming(false);
  };

  return (
    <AdminPage
      title={t('api_keys.title')}
      description={t('api_keys.description')}
      flashKey={applicationKeysFlashKey}
      actions={
        <Link to="/admin/api/new" className={buttonClasses('primary', 'md')}>
          {t('api_keys.create')}
        </Link>
      }
    >
      {keys.error ? null : !keys.data ? (
        <SpinnerBlock />
      ) : (
        <AdminTable
          rows={keys.data}
          rowKey={(key) => key.identifier}
          empty={t('api_keys.empty')}
          caption={t('api_keys.title')}
          columns={[
            { key: 'memo', header: t('api_keys.columns.memo'), cell: (key) => key.memo },
            {
              key: 'identifier',
              header: t('api_keys.columns.identifier'),
              cell: (key) => (
                <CopyOnClick text={key.identifier}>
                  <code className="rounded bg-ink-950 px-2 py-1 font-mono text-xs">{key.identifier}</code>
                </CopyOnClick>
              ),
            },
            {
              key: 'last_used',
              header: t('api_keys.columns.last_used'),
              cell: (key) => (key.lastUsedAt ? formatDate(key.lastUsedAt, dateFormat) : t('api_keys.never')),
            },
            {
              key: 'created',
              header: t('api_keys.columns.created'),
              cell: (key) => (key.createdAt ? formatDate(key.createdAt, dateFormat) : ''),
            },
            {
              key: 'actions',
              header: <span className="sr-only">{t('actions.delete')}</span>,
              className: 'w-12 text-end',
              cell: (key) => (
                <button
                  type="button"
                  aria-label={t('api_keys.revoke', { memo: key.memo })}
                  title={t('api_keys.revoke', { memo: key.memo })}
                  onClick={() => {
                    setRevoking(key);
                    setConfirming(true);
                  }}
                  className="rounded-md p-2 text-ink-400 transition-colors hover:bg-red-500/10 hover:text-red-400"
                >
                  <TrashIcon className="size-5" />
                </button>
              ),
            },
          ]}
        />
      )}
      <ConfirmationModal
        visible={confirming}
        onClose={() => setConfirming(false)}
        title={t('api_keys.revoke_title')}
        confirmLabel={t('api_keys.revoke_confirm')}
        cancelLabel={t('actions.cancel')}
        onConfirm={() => void handleConfirm()}
        isLoading={revoke.isPending}
      >
        {t('api_keys.revoke_text', { memo: revoking?.memo ?? '' })}
      </ConfirmationModal>
    </AdminPage>
  );
}

import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { Button } from '@/components/ui/button';
import { ConfirmationModal } from '@/components/ui/confirmation-modal';
import { ContentBox } from '@/components/ui/content-box';
import { paths } from '@/config/paths';
import {
  type AdminServer,
  adminServerKeys,
  deleteAdminServer,
  freeAllocationsKey,
  serverAction,
} from '@/features/admin-servers/api/admin-servers';
import { flashActions } from '@/stores/flash-store';
import { ServerTransferBox } from './server-transfer-box';

type Pending = 'reinstall' | 'delete' | 'force' | null;

/**
 * Reinstall, suspend or unsuspend, transfer to another node, delete and force delete, the irreversible ones behind a
 * confirmation.
 */
export function ServerManageTab({ server }: { server: AdminServer }) {
  const { t } = useTranslation('admin');
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [pending, setPending] = useState<Pending>(null);
  const [busy, setBusy] = useState(false);

  const run = async (work: () => Promise<void>, done: string, after?: () => void) => {
    flashActions().clearFlashes('admin:server');
    setBusy(true);
    try {
      await work();
      await queryClient.invalidateQueries({ queryKey: adminServerKeys.all });
      // A deleted server's allocations are free again.
      await queryClient.invalidateQueries({ queryKey: freeAllocationsKey });
      flashActions().addFlash({
        key: after ? 'admin:servers' : 'admin:server',
        type: 'success',
        message: done,
      });
      after?.();
    } catch (error) {
      flashActions().clearAndAddHttpError({ key: 'admin:server', error });
    } finally {
      setBusy(false);
      setPending(null);
    }
  };

  const suspended = server.status === 'suspended';
  return (
    <div className="grid grid-cols-1 gap-6 md:grid-cols-2">
      <ContentBox title={t('servers.view.reinstall')}>
        <p className="mb-4 text-sm text-ink-300">{t('servers.view.reinstall_text')}</p>
        <Button variant="secondary" onClick={() => setPending('reinstall')}>
          {t('servers.view.reinstall')}
        </Button>
      </ContentBox>
      <ContentBox title={suspended ? t('servers.view.unsuspend') : t('servers.view.suspend')}>
        <p className="mb-4 text-sm text-ink-300">{t('servers.view.suspend_text')}</p>
        <Button
          variant={suspended ? 'secondary' : 'danger'}
          isLoading={busy && pending === null}
          onClick={() =>
            run(
              () => serverAction(server.id, suspended ? 'unsuspend' : 'suspend'),
              suspended ? t('servers.view.unsuspended_now') : t('servers.view.suspended_now'),
            )
          }
        >
          {suspended ? t('servers.view.unsuspend') : t('servers.view.suspend')}
        </Button>
      </ContentBox>
      <ServerTransferBox server={server} />
      <ContentBox title={t('servers.view.delete')}>
        <p className="mb-4 text-sm text-ink-300">{t('servers.view.delete_text')}</p>
        <Button variant="danger" onClick={() => setPending('delete')}>
          {t('servers.view.delete')}
        </Button>
      </ContentBox>
      <ContentBox title={t('servers.view.force_delete')}>
        <p className="mb-4 text-sm text-ink-300">{t('servers.view.force_text')}</p>
        <Button variant="danger" onClick={() => setPending('force')}>
          {t('servers.view.force_delete')}
        </Button>
      </ContentBox>
      <ConfirmationModal
        visible={pending !== null}
        onClose={() => setPending(null)}
        isLoading={busy}
        title={pending === 'reinstall' ? t('servers.view.reinstall') : t('servers.view.delete')}
        confirmLabel={
          pending === 'reinstall'
            ? t('servers.view.reinstall')
            : pending === 'force'
              ? t('servers.view.force_delete')
              : t('servers.view.delete')
        }
        cancelLabel={t('actions.cancel')}
        onConfirm={() => {
          if (pending === 'reinstall') {
            void run(() => serverAction(server.id, 'reinstall'), t('servers.view.reinstalling'));
          } else {
            void run(
              () => deleteAdminServer(server.id, pending === 'force'),
              t('servers.view.deleted'),
              () => navigate(paths.adminSection('servers')),
            );
          }
        }}
      >
        {pending === 'reinstall'
          ? t('servers.view.reinstall_confirm')
          : t('servers.view.delete_confirm', { name: server.name })}
      </ConfirmationModal>
    </div>
  );
}

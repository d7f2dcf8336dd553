import { serverSettingsMessages } from '@aerie/shared/server-settings/server-settings-bodies';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { ConfirmationModal } from '@/components/ui/confirmation-modal';
import { ContentBox } from '@/components/ui/content-box';
import { useReinstallServer } from '@/features/server-settings/api/server-settings';
import { settingsFlashKey } from '@/features/server-settings/components/server-settings-flash-keys';
import { useServer } from '@/features/servers/hooks/use-server';
import { flashActions } from '@/stores/flash-store';

/** Runs the egg's install script again, after a confirmation (settings.reinstall). */
export function ReinstallServerBox() {
  const { t } = useTranslation('server');
  const server = useServer();
  const reinstall = useReinstallServer(server.id);
  const [confirming, setConfirming] = useState(false);

  const handleConfirm = async () => {
    flashActions().clearFlashes(settingsFlashKey);
    try {
      await reinstall.mutateAsync();
      flashActions().addFlash({
        key: settingsFlashKey,
        type: 'success',
        message: serverSettingsMessages.reinstallStarted,
      });
    } catch (error) {
      flashActions().clearAndAddHttpError({ key: settingsFlashKey, error });
    } finally {
      setConfirming(false);
    }
  };

  return (
    <ContentBox title={t('settings.reinstall.title')}>
      <ConfirmationModal
        visible={confirming}
        onClose={() => setConfirming(false)}
        title={t('settings.reinstall.confirm_title')}
        confirmLabel={t('settings.reinstall.confirm')}
        cancelLabel={t('settings.reinstall.cancel')}
        onConfirm={() => void handleConfirm()}
        isLoading={reinstall.isPending}
      >
        {t('settings.reinstall.confirm_message')}
      </ConfirmationModal>
      <p className="text-sm leading-relaxed text-ink-300">
        {t('settings.reinstall.description')}{' '}
        <strong className="font-medium text-ink-100">{t('settings.reinstall.warning')}</strong>
      </p>
      <div className="mt-6 flex justify-end">
        <Button variant="danger" onClick={() => setConfirming(true)}>
          {t('settings.reinstall.button')}
        </Button>
      </div>
    </ContentBox>
  );
}

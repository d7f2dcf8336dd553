import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { ConfirmationModal } from '@/components/ui/confirmation-modal';
import { type SshKey, sshKeysQueryOptions, useRemoveSshKey } from '@/features/ssh-keys/api/ssh-keys';
import { SshKeyRow } from '@/features/ssh-keys/components/ssh-key-row';
import { sshKeysFlashKey } from '@/features/ssh-keys/components/ssh-keys-flash-keys';
import { flashActions } from '@/stores/flash-store';

const code = <code className="rounded bg-ink-950 px-1.5 py-0.5 font-mono text-xs text-ink-100" />;

/** The account's SSH keys, each with a delete icon that asks for confirmation first. */
export function SshKeysList() {
  const { t } = useTranslation('account');
  const keys = useQuery(sshKeysQueryOptions());
  const remove = useRemoveSshKey();
  const [deleting, setDeleting] = useState<SshKey | null>(null);
  const [confirming, setConfirming] = useState(false);

  useEffect(() => {
    if (keys.error) flashActions().clearAndAddHttpError({ key: sshKeysFlashKey, error: keys.error });
  }, [keys.error]);

  const handleAsk = (key: SshKey) => {
    setDeleting(key);
    setConfirming(true);
  };

  const handleConfirm = async () => {
    if (!deleting) return;
    flashActions().clearFlashes(sshKeysFlashKey);
    try {
      await remove.mutateAsync(deleting.fingerprint);
    } catch (error) {
      flashActions().clearAndAddHttpError({ key: sshKeysFlashKey, error });
    }
    setConfirming(false);
  };

  const list = keys.data ?? [];
  return (
    <>
      {list.length === 0 ? (
        <p className="py-6 text-center text-sm text-ink-400">
          {keys.isPending ? t('ssh_keys.loading') : t('ssh_keys.empty')}
        </p>
      ) : (
        <ul className="space-y-2">
          {list.map((key) => (
            <SshKeyRow key={key.fingerprint} sshKey={key} onDelete={handleAsk} />
          ))}
        </ul>
      )}
      <ConfirmationModal
        visible={confirming}
        onClose={() => setConfirming(false)}
        title={t('ssh_keys.delete_title')}
        confirmLabel={t('ssh_keys.delete_confirm')}
        cancelLabel={t('ssh_keys.cancel')}
        onConfirm={() => void handleConfirm()}
        isLoading={remove.isPending}
      >
        <Trans
          t={t}
          i18nKey="ssh_keys.delete_text"
          values={{ name: deleting?.name ?? '' }}
          components={{ code }}
        />
      </ConfirmationModal>
    </>
  );
}

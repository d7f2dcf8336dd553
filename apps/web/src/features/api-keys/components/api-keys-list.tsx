import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmationModal } from '@/components/ui/confirmation-modal';
import { type ApiKey, apiKeysQueryOptions, useDeleteApiKey } from '@/features/api-keys/api/api-keys';
import { ApiKeyRow } from '@/features/api-keys/components/api-key-row';
import { flashActions } from '@/stores/flash-store';

const flashKey = 'account';

/** The account's keys, each with a delete icon that asks for confirmation first. */
export function ApiKeysList() {
  const { t } = useTranslation('account');
  const keys = useQuery(apiKeysQueryOptions());
  const remove = useDeleteApiKey();
  const [deleting, setDeleting] = useState<ApiKey | null>(null);
  const [confirming, setConfirming] = useState(false);

  useEffect(() => {
    if (keys.error) flashActions().clearAndAddHttpError({ key: flashKey, error: keys.error });
  }, [keys.error]);

  const handleAsk = (key: ApiKey) => {
    setDeleting(key);
    setConfirming(true);
  };

  const handleConfirm = async () => {
    if (!deleting) return;
    flashActions().clearFlashes(flashKey);
    try {
      await remove.mutateAsync(deleting.identifier);
    } catch (error) {
      flashActions().clearAndAddHttpError({ key: flashKey, error });
    }
    setConfirming(false);
  };

  const list = keys.data ?? [];
  return (
    <>
      {list.length === 0 ? (
        <p className="py-6 text-center text-sm text-ink-400">
          {keys.isPending ? t('api_keys.loading') : t('api_keys.empty')}
        </p>
      ) : (
        <ul className="space-y-2">
          {list.map((key) => (
            <ApiKeyRow key={key.identifier} apiKey={key} onDelete={handleAsk} />
          ))}
        </ul>
      )}
      <ConfirmationModal
        visible={confirming}
        onClose={() => setConfirming(false)}
        title={t('api_keys.delete_title')}
        confirmLabel={t('api_keys.delete_confirm')}
        cancelLabel={t('api_keys.cancel')}
        onConfirm={() => void handleConfirm()}
        isLoading={remove.isPending}
      >
        {t('api_keys.delete_text')}
      </ConfirmationModal>
    </>
  );
}

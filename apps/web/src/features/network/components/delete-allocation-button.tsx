import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { ConfirmationModal } from '@/components/ui/confirmation-modal';
import { TrashIcon } from '@/components/ui/icons';
import { useDeleteAllocation } from '@/features/network/api/allocations';
import { networkFlashKey } from '@/features/network/components/network-flash-keys';
import { type Allocation, allocationAddress } from '@/features/servers/api/transformers';
import { useServer } from '@/features/servers/hooks/use-server';
import { flashActions } from '@/stores/flash-store';

/** Removes an allocation from the server after a confirmation; it leaves the list at once (spec §4). */
export function DeleteAllocationButton({ allocation }: { allocation: Allocation }) {
  const { t } = useTranslation('server');
  const server = useServer();
  const remove = useDeleteAllocation(server.id, {
    onError: (error) => flashActions().clearAndAddHttpError({ key: networkFlashKey, error }),
  });
  const [confirming, setConfirming] = useState(false);

  const handleConfirm = () => {
    setConfirming(false);
    flashActions().clearFlashes(networkFlashKey);
    remove.mutate(allocation.id);
  };

  return (
    <>
      <ConfirmationModal
        visible={confirming}
        onClose={() => setConfirming(false)}
        title={t('network.delete.title')}
        confirmLabel={t('network.delete.confirm')}
        cancelLabel={t('network.delete.cancel')}
        onConfirm={handleConfirm}
      >
        {t('network.delete.message')}
      </ConfirmationModal>
      <Button
        variant="ghost"
        size="sm"
        aria-label={t('network.delete.label', { address: allocationAddress(allocation) })}
        className="text-red-400 hover:text-red-300"
        onClick={() => setConfirming(true)}
      >
        <TrashIcon className="size-4" />
      </Button>
    </>
  );
}

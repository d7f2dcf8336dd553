import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { ConfirmationModal } from '@/components/ui/confirmation-modal';
import { FlashMessageRender } from '@/components/ui/flash-message-render';
import { flashActions } from '@/stores/flash-store';

const flashKey = 'admin:nests:delete';

/** A delete button that asks first; the API's refusal (a nest or egg still in use) shows in the dialog. */
export function DeleteButton({
  title,
  text,
  onDelete,
  label,
}: {
  title: string;
  text: string;
  onDelete: () => Promise<unknown>;
  label?: string;
}) {
  const { t } = useTranslation('admin');
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);

  const confirm = async () => {
    flashActions().clearFlashes(flashKey);
    setBusy(true);
    try {
      await onDelete();
      setOpen(false);
    } catch (error) {
      flashActions().clearAndAddHttpError({ key: flashKey, error });
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <Button variant="danger" size="sm" onClick={() => setOpen(true)}>
        {label ?? t('actions.delete')}
      </Button>
      <ConfirmationModal
        visible={open}
        onClose={() => {
          flashActions().clearFlashes(flashKey);
          setOpen(false);
        }}
        title={title}
        confirmLabel={t('actions.delete')}
        cancelLabel={t('actions.cancel')}
        onConfirm={confirm}
        isLoading={busy}
        notice={<FlashMessageRender byKey={flashKey} className="mb-4" />}
      >
        {text}
      </ConfirmationModal>
    </>
  );
}

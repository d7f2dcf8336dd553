import type { ReactNode } from 'react';
import { Button } from '@/components/ui/button';
import { Modal } from '@/components/ui/modal';

interface ConfirmationModalProps {
  visible: boolean;
  /** Cancel, Escape, the backdrop and the close icon all end here: set `visible` to false in it. */
  onClose: () => void;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  cancelLabel: string;
  onConfirm: () => void;
  /** While true the spinner overlay blocks the modal and every way of closing it. */
  isLoading?: boolean;
  /** Shown above the text, e.g. the flashes of a failed attempt. */
  notice?: ReactNode;
}

/** Asks before something that cannot be undone: a danger button to go ahead and a button to back out. */
export function ConfirmationModal({
  visible,
  onClose,
  title,
  children,
  confirmLabel,
  cancelLabel,
  onConfirm,
  isLoading = false,
  notice,
}: ConfirmationModalProps) {
  return (
    <Modal visible={visible} onDismissed={onClose} title={title} showSpinnerOverlay={isLoading} size="sm">
      {notice}
      <p className="text-sm leading-relaxed text-ink-300">{children}</p>
      <div className="mt-6 flex flex-wrap justify-end gap-3">
        <Button variant="secondary" onClick={onClose} disabled={isLoading}>
          {cancelLabel}
        </Button>
        <Button variant="danger" onClick={onConfirm} isLoading={isLoading}>
          {confirmLabel}
        </Button>
      </div>
    </Modal>
  );
}

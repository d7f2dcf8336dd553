import { fileLimits } from '@aerie/shared/files/file-wire';
import { useTranslation } from 'react-i18next';
import { ConfirmationModal } from '@/components/ui/confirmation-modal';

interface DeleteFilesModalProps {
  names: string[];
  visible: boolean;
  onClose: () => void;
  onConfirm: () => void;
}

/** Names up to 15 files, then "+ N other(s)" (spec §9). */
export function DeleteFilesModal({ names, visible, onClose, onConfirm }: DeleteFilesModalProps) {
  const { t } = useTranslation('server');
  const shown = names.slice(0, fileLimits.bulkDeleteNames);
  const others = names.length - shown.length;
  return (
    <ConfirmationModal
      visible={visible}
      onClose={onClose}
      onConfirm={onConfirm}
      title={t('files.delete.title', { count: names.length })}
      confirmLabel={t('files.delete.confirm')}
      cancelLabel={t('files.delete.cancel')}
      notice={
        <ul data-testid="delete-file-names" className="mb-3 space-y-0.5 font-mono text-xs text-ink-200">
          {shown.map((name) => (
            <li key={name}>{name}</li>
          ))}
          {others > 0 && <li>{t('files.delete.others', { count: others })}</li>}
        </ul>
      }
    >
      {t('files.delete.message', { count: names.length })}
    </ConfirmationModal>
  );
}

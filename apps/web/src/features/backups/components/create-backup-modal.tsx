import { type BackupForm, backupFormSchema, backupLimits } from '@aerie/shared/backups/backups-bodies';
import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useMemo } from 'react';
import { FormProvider, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { FormSwitch } from '@/components/admin/form-switch';
import { Button } from '@/components/ui/button';
import { FormField, FormTextareaField } from '@/components/ui/field';
import { FlashMessageRender } from '@/components/ui/flash-message-render';
import { Modal } from '@/components/ui/modal';
import { useCreateBackup } from '@/features/backups/api/backups';
import { createBackupFlashKey } from '@/features/backups/components/backups-flash-keys';
import { Can } from '@/features/servers/components/can';
import { useServer } from '@/features/servers/hooks/use-server';
import { flashActions } from '@/stores/flash-store';

interface CreateBackupModalProps {
  visible: boolean;
  /** The list page on screen, where the new backup shows at once. */
  page: number;
  /** Closes the modal (it fades out first). */
  onClose: () => void;
  /** Called once it has faded out. */
  onDismissed: () => void;
}

const emptyForm: BackupForm = { name: '', ignored: '', isLocked: false };

/** The ignore rules' textarea rows (spec §9). */
const ignoredRows = 6;

/**
 * "Create server backup" (spec §2 "Backups"): Backup name, Ignored Files & Directories, Locked (only with
 * backup.delete, which the panel needs to honour it), Start backup. A refused create shows inside the modal under
 * `backups:create`.
 */
export function CreateBackupModal({ visible, page, onClose, onDismissed }: CreateBackupModalProps) {
  const { t } = useTranslation('server');
  const server = useServer();
  const create = useCreateBackup(server.id, page);

  // The shared schema carries no texts: the name's limit reads as the page's own sentence.
  const resolver = useMemo(
    () =>
      zodResolver(backupFormSchema, {
        error: (issue) =>
          issue.code === 'too_big' && issue.path?.[0] === 'name'
            ? t('backups.modal.name_max', { max: backupLimits.nameMax })
            : undefined,
      }),
    [t],
  );
  const form = useForm<BackupForm>({ resolver, defaultValues: emptyForm, mode: 'onTouched' });
  const submitting = form.formState.isSubmitting;

  // The modal's errors belong to this opening only.
  useEffect(() => () => flashActions().clearFlashes(createBackupFlashKey), []);

  const handleSubmit = form.handleSubmit(async (values) => {
    flashActions().clearFlashes(createBackupFlashKey);
    try {
      await create.mutateAsync({
        name: values.name.trim() || null,
        ignored: values.ignored,
        is_locked: values.isLocked,
      });
      onClose();
    } catch (error) {
      flashActions().clearAndAddHttpError({ key: createBackupFlashKey, error });
    }
  });

  return (
    <Modal
      visible={visible}
      onDismissed={onDismissed}
      title={t('backups.modal.title')}
      showSpinnerOverlay={submitting}
      size="lg"
    >
      <FlashMessageRender byKey={createBackupFlashKey} className="mb-4" />
      <FormProvider {...form}>
        <form onSubmit={handleSubmit} noValidate className="space-y-6">
          <FormField<BackupForm>
            name="name"
            label={t('backups.modal.name')}
            description={t('backups.modal.name_hint')}
            autoComplete="off"
            autoFocus
          />
          <FormTextareaField<BackupForm>
            name="ignored"
            label={t('backups.modal.ignored')}
            description={t('backups.modal.ignored_hint')}
            rows={ignoredRows}
            spellCheck={false}
            className="font-mono"
          />
          <Can action="backup.delete">
            <div className="rounded-lg border border-ink-800 bg-ink-900 p-4">
              <FormSwitch<BackupForm>
                name="isLocked"
                label={t('backups.modal.locked')}
                description={t('backups.modal.locked_hint')}
              />
            </div>
          </Can>
          <div className="flex justify-end">
            <Button type="submit" isLoading={submitting}>
              {t('backups.modal.submit')}
            </Button>
          </div>
        </form>
      </FormProvider>
    </Modal>
  );
}

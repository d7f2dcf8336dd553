import { databaseFormMessages, deleteConfirmationMatches } from '@aerie/shared/databases/databases-forms';
import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useMemo } from 'react';
import { FormProvider, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { Button } from '@/components/ui/button';
import { FormField } from '@/components/ui/field';
import { FlashMessageRender } from '@/components/ui/flash-message-render';
import { Modal } from '@/components/ui/modal';
import { type ServerDatabase, useDeleteServerDatabase } from '@/features/databases/api/databases';
import { deleteDatabaseFlashKey } from '@/features/databases/components/databases-flash-keys';
import { useServer } from '@/features/servers/hooks/use-server';
import { flashActions } from '@/stores/flash-store';

interface DeleteDatabaseModalProps {
  database: ServerDatabase;
  visible: boolean;
  /** Closes the modal (it fades out first). */
  onClose: () => void;
  /** Called once it has faded out. */
  onDismissed: () => void;
}

interface DeleteForm {
  confirm: string;
}

/**
 * "Confirm database deletion" (spec §2 "Databases", §5): Delete Database stays disabled until the field holds the
 * database's name or the part after its first underscore ("The database name must be provided." otherwise). A
 * refused delete shows inside the modal under `database:delete`; a done one takes the row away.
 */
export function DeleteDatabaseModal({ database, visible, onClose, onDismissed }: DeleteDatabaseModalProps) {
  const { t } = useTranslation('server');
  const server = useServer();
  const remove = useDeleteServerDatabase(server.id);

  const schema = useMemo(
    () =>
      z.object({
        confirm: z
          .string()
          .refine(
            (typed) => deleteConfirmationMatches(database.name, typed),
            databaseFormMessages.deleteConfirm,
          ),
      }),
    [database.name],
  );
  const form = useForm<DeleteForm>({
    resolver: zodResolver(schema),
    defaultValues: { confirm: '' },
    mode: 'onChange',
  });
  const submitting = form.formState.isSubmitting;

  // The modal's errors belong to this opening only.
  useEffect(() => () => flashActions().clearFlashes(deleteDatabaseFlashKey), []);

  const handleSubmit = form.handleSubmit(async () => {
    flashActions().clearFlashes(deleteDatabaseFlashKey);
    try {
      await remove.mutateAsync(database.id);
    } catch (error) {
      flashActions().clearAndAddHttpError({ key: deleteDatabaseFlashKey, error });
    }
  });

  return (
    <Modal
      visible={visible}
      onDismissed={onDismissed}
      title={t('databases.delete.title')}
      showSpinnerOverlay={submitting}
    >
      <FlashMessageRender byKey={deleteDatabaseFlashKey} className="mb-4" />
      <p className="text-sm leading-relaxed text-ink-300">
        {t('databases.delete.message_before')}
        <strong className="font-semibold text-ink-50">{database.name}</strong>
        {t('databases.delete.message_after')}
      </p>
      <FormProvider {...form}>
        <form onSubmit={handleSubmit} noValidate className="mt-6 space-y-6">
          <FormField<DeleteForm>
            name="confirm"
            label={t('databases.delete.confirm')}
            description={t('databases.delete.confirm_hint')}
            autoComplete="off"
            spellCheck={false}
            autoFocus
          />
          <div className="flex flex-wrap justify-end gap-3">
            <Button type="button" variant="secondary" onClick={onClose} disabled={submitting}>
              {t('databases.delete.cancel')}
            </Button>
            <Button type="submit" variant="danger" disabled={!form.formState.isValid} isLoading={submitting}>
              {t('databases.delete.submit')}
            </Button>
          </div>
        </form>
      </FormProvider>
    </Modal>
  );
}

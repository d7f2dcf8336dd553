import {
  type DatabaseFormValues,
  databaseFormDefaults,
  databaseFormSchema,
} from '@aerie/shared/databases/databases-forms';
import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect } from 'react';
import { FormProvider, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { FormField } from '@/components/ui/field';
import { FlashMessageRender } from '@/components/ui/flash-message-render';
import { Modal } from '@/components/ui/modal';
import { useCreateServerDatabase } from '@/features/databases/api/databases';
import { createDatabaseFlashKey } from '@/features/databases/components/databases-flash-keys';
import { useServer } from '@/features/servers/hooks/use-server';
import { flashActions } from '@/stores/flash-store';

interface CreateDatabaseModalProps {
  visible: boolean;
  /** Closes the modal (it fades out first). */
  onClose: () => void;
  /** Called once it has faded out. */
  onDismissed: () => void;
}

/**
 * "Create new database" (spec §2 "Databases", §5): Database Name (3 to 48 letters, digits, `_`, `-`, `.`) and
 * Connections From (`%` by default), checked with the shared `databaseFormSchema` in the spec's words, sent as
 * `{database, remote}`. A refusal (the panel's 422 or 400) shows inside the modal under `database:create`.
 */
export function CreateDatabaseModal({ visible, onClose, onDismissed }: CreateDatabaseModalProps) {
  const { t } = useTranslation('server');
  const server = useServer();
  const create = useCreateServerDatabase(server.id);
  const form = useForm<DatabaseFormValues>({
    resolver: zodResolver(databaseFormSchema),
    defaultValues: databaseFormDefaults,
    mode: 'onTouched',
  });
  const submitting = form.formState.isSubmitting;

  // The modal's errors belong to this opening only.
  useEffect(() => () => flashActions().clearFlashes(createDatabaseFlashKey), []);

  const handleSubmit = form.handleSubmit(async (values) => {
    flashActions().clearFlashes(createDatabaseFlashKey);
    try {
      await create.mutateAsync({ database: values.databaseName, remote: values.connectionsFrom });
      onClose();
    } catch (error) {
      flashActions().clearAndAddHttpError({ key: createDatabaseFlashKey, error });
    }
  });

  return (
    <Modal
      visible={visible}
      onDismissed={onDismissed}
      title={t('databases.create.title')}
      showSpinnerOverlay={submitting}
    >
      <FlashMessageRender byKey={createDatabaseFlashKey} className="mb-4" />
      <FormProvider {...form}>
        <form onSubmit={handleSubmit} noValidate className="space-y-6">
          <FormField<DatabaseFormValues>
            name="databaseName"
            label={t('databases.create.name')}
            description={t('databases.create.name_hint')}
            autoComplete="off"
            autoFocus
          />
          <FormField<DatabaseFormValues>
            name="connectionsFrom"
            label={t('databases.create.remote')}
            description={t('databases.create.remote_hint')}
            autoComplete="off"
          />
          <div className="flex flex-wrap justify-end gap-3">
            <Button type="button" variant="secondary" onClick={onClose} disabled={submitting}>
              {t('databases.create.cancel')}
            </Button>
            <Button type="submit" isLoading={submitting}>
              {t('databases.create.submit')}
            </Button>
          </div>
        </form>
      </FormProvider>
    </Modal>
  );
}

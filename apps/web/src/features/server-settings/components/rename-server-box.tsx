import {
  type RenameServerFormValues,
  renameServerFormSchema,
} from '@aerie/shared/server-settings/server-settings-forms';
import { FormProvider } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { ContentBox } from '@/components/ui/content-box';
import { FormField, FormTextareaField } from '@/components/ui/field';
import { useRenameServer } from '@/features/server-settings/api/server-settings';
import { settingsFlashKey } from '@/features/server-settings/components/server-settings-flash-keys';
import { useServer } from '@/features/servers/hooks/use-server';
import { useSaveForm } from '@/hooks/use-save-form';

/** A 422 names the API's fields, which are the form's. */
const apiFields = { name: 'name', description: 'description' } as const;

/** The server's name and description (settings.rename). */
export function RenameServerBox() {
  const { t } = useTranslation('server');
  const server = useServer();
  const rename = useRenameServer(server.id);
  const { form, submit } = useSaveForm({
    schema: renameServerFormSchema,
    defaultValues: { name: server.name, description: server.description ?? '' },
    flashKey: settingsFlashKey,
    apiFields,
    save: async (values: RenameServerFormValues) => {
      await rename.mutateAsync(values);
      return values;
    },
    onSaved: (values, savedForm) => savedForm.reset(values),
  });

  return (
    <ContentBox title={t('settings.rename.title')}>
      <FormProvider {...form}>
        <form onSubmit={submit} noValidate className="space-y-5">
          <FormField<RenameServerFormValues> name="name" label={t('settings.rename.name')} />
          <FormTextareaField<RenameServerFormValues>
            name="description"
            label={t('settings.rename.description')}
            rows={3}
          />
          <div className="flex justify-end">
            <Button type="submit" isLoading={form.formState.isSubmitting}>
              {t('settings.rename.save')}
            </Button>
          </div>
        </form>
      </FormProvider>
    </ContentBox>
  );
}

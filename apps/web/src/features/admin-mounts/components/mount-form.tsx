import { type MountFormValues, mountFormSchema } from '@aerie/shared/mounts/mounts-forms';
import { useQueryClient } from '@tanstack/react-query';
import { FormProvider } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { FormSwitch } from '@/components/admin/form-switch';
import { Button, buttonClasses } from '@/components/ui/button';
import { ContentBox } from '@/components/ui/content-box';
import { FormField } from '@/components/ui/field';
import { FlashMessageRender } from '@/components/ui/flash-message-render';
import { createMount, type Mount, mountKeys, updateMount } from '@/features/admin-mounts/api/mounts';
import { useSaveForm } from '@/hooks/use-save-form';

export const mountFormFlashKey = 'admin:mount:form';

const apiFields = {
  name: 'name',
  description: 'description',
  source: 'source',
  target: 'target',
  read_only: 'readOnly',
  user_mountable: 'userMountable',
} as const;

const toFormValues = (mount: Mount | undefined): MountFormValues => ({
  name: mount?.name ?? '',
  description: mount?.description ?? '',
  source: mount?.source ?? '',
  target: mount?.target ?? '',
  readOnly: mount?.readOnly ?? true,
  userMountable: mount?.userMountable ?? false,
});

/** Name, paths and access of a mount. */
export function MountForm({ mount, onSaved }: { mount?: Mount; onSaved: (mount: Mount) => void }) {
  const { t } = useTranslation('admin');
  const queryClient = useQueryClient();
  const { form, submit } = useSaveForm({
    schema: mountFormSchema,
    defaultValues: toFormValues(mount),
    flashKey: mountFormFlashKey,
    apiFields,
    save: (values: MountFormValues) => {
      const body = {
        name: values.name,
        description: values.description.trim() || null,
        source: values.source,
        target: values.target,
        read_only: values.readOnly,
        user_mountable: values.userMountable,
      };
      return mount ? updateMount(mount.id, body) : createMount(body);
    },
    onSaved: async (saved, savedForm) => {
      await queryClient.invalidateQueries({ queryKey: mountKeys.all });
      savedForm.reset(toFormValues(saved));
      onSaved(saved);
    },
  });

  return (
    <FormProvider {...form}>
      <form onSubmit={submit} noValidate className="space-y-6">
        <ContentBox title={t('mounts.details')}>
          <FlashMessageRender byKey={mountFormFlashKey} className="mb-5" />
          <div className="grid grid-cols-1 gap-5 md:grid-cols-2">
            <FormField<MountFormValues> name="name" label={t('mounts.name')} />
            <FormField<MountFormValues> name="description" label={t('mounts.description_field')} />
            <FormField<MountFormValues>
              name="source"
              label={t('mounts.source')}
              description={t('mounts.source_hint')}
              spellCheck={false}
              className="font-mono"
            />
            <FormField<MountFormValues>
              name="target"
              label={t('mounts.target')}
              description={t('mounts.target_hint')}
              spellCheck={false}
              className="font-mono"
            />
            <FormSwitch<MountFormValues>
              name="readOnly"
              label={t('mounts.read_only')}
              description={t('mounts.read_only_hint')}
            />
            <FormSwitch<MountFormValues>
              name="userMountable"
              label={t('mounts.user_mountable')}
              description={t('mounts.user_mountable_hint')}
            />
          </div>
        </ContentBox>
        <div className="flex justify-end gap-3">
          <Link to="/admin/mounts" className={buttonClasses('secondary', 'md')}>
            {t('actions.cancel')}
          </Link>
          <Button type="submit" isLoading={form.formState.isSubmitting}>
            {mount ? t('mounts.save') : t('mounts.submit_create')}
          </Button>
        </div>
      </form>
    </FormProvider>
  );
}

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import {
  type AdminServer,
  adminServerKeys,
  updateServerDetails,
} from '@/features/admin-servers/api/admin-servers';
import { OwnerPicker } from '@/features/admin-servers/components/owner-picker';
import { FormSection, TextField } from '@/features/admin-servers/components/server-form-fields';
import { flashActions } from '@/stores/flash-store';

interface DetailsValues {
  name: string;
  owner: string;
  externalId: string;
  description: string;
}

/** Name, owner (found by email or username, as on the new-server page), external id and description. */
export function ServerDetailsTab({ server }: { server: AdminServer }) {
  const { t } = useTranslation('admin');
  const queryClient = useQueryClient();
  const form = useForm<DetailsValues>({
    defaultValues: {
      name: server.name,
      owner: String(server.userId),
      externalId: server.externalId ?? '',
      description: server.description,
    },
  });
  const save = useMutation({
    mutationFn: (values: DetailsValues) =>
      updateServerDetails(server.id, {
        name: values.name,
        user: Number(values.owner),
        external_id: values.externalId.trim() || null,
        description: values.description,
      }),
  });
  const submit = form.handleSubmit(async (values) => {
    flashActions().clearFlashes('admin:server');
    try {
      await save.mutateAsync(values);
      await queryClient.invalidateQueries({ queryKey: adminServerKeys.all });
      flashActions().addFlash({ key: 'admin:server', type: 'success', message: t('servers.view.saved') });
    } catch (error) {
      flashActions().clearAndAddHttpError({ key: 'admin:server', error });
    }
  });
  return (
    <form onSubmit={submit} noValidate className="space-y-6">
      <FormSection title={t('servers.view.details_title')}>
        <TextField<DetailsValues> register={form.register} name="name" label={t('servers.new.name')} />
        <OwnerPicker
          current={server.owner}
          onPick={(owner) => form.setValue('owner', String(owner.id), { shouldDirty: true })}
        />
        <TextField<DetailsValues>
          register={form.register}
          name="externalId"
          label={t('servers.new.external_id')}
        />
        <TextField<DetailsValues>
          register={form.register}
          name="description"
          label={t('servers.new.description')}
        />
      </FormSection>
      <div className="flex justify-end">
        <Button type="submit" isLoading={form.formState.isSubmitting}>
          {t('actions.save')}
        </Button>
      </div>
    </form>
  );
}

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { SelectField } from '@/components/admin/select-field';
import { Button } from '@/components/ui/button';
import {
  type AdminServer,
  adminServerKeys,
  choiceQueries,
  eggOptions,
  updateServerStartup,
} from '@/features/admin-servers/api/admin-servers';
import { FormSection, TextField } from '@/features/admin-servers/components/server-form-fields';
import { flashActions } from '@/stores/flash-store';

interface StartupValues {
  startup: string;
  image: string;
  variables: Record<string, string>;
}

/** Egg, image, startup command and every variable's value (the whole map is sent, as the API expects). */
export function ServerStartupTab({ server }: { server: AdminServer }) {
  const { t } = useTranslation('admin');
  const queryClient = useQueryClient();
  const eggs = useQuery(choiceQueries.eggs()).data;
  const [eggId, setEggId] = useState(String(server.eggId));
  const egg = eggs?.eggs.find((candidate) => String(candidate.id) === eggId);
  const form = useForm<StartupValues>({
    defaultValues: {
      startup: server.container.startupCommand,
      image: server.container.image,
      variables: Object.fromEntries(
        Object.entries(server.container.environment).map(([key, value]) => [
          key,
          value === null ? '' : String(value),
        ]),
      ),
    },
  });
  const save = useMutation({
    mutationFn: (values: StartupValues) =>
      updateServerStartup(server.id, {
        startup: values.startup,
        image: values.image,
        egg: Number(eggId),
        environment: Object.fromEntries(
          (egg?.variables ?? []).map((variable) => [variable.env, values.variables[variable.env] ?? '']),
        ),
        skip_scripts: false,
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
      <FormSection title={t('servers.view.startup_title')}>
        <SelectField
          label={t('servers.view.egg_id')}
          value={eggId}
          onChange={(event) => setEggId(event.target.value)}
          options={eggOptions(eggs)}
        />
        <TextField<StartupValues> register={form.register} name="image" label={t('servers.new.image')} />
        <TextField<StartupValues>
          register={form.register}
          name="startup"
          label={t('servers.new.startup')}
          className="sm:col-span-2"
        />
        {egg?.variables.map((variable) => (
          <TextField<StartupValues>
            key={variable.env}
            register={form.register}
            name={`variables.${variable.env}`}
            label={variable.name}
            hint={`${variable.env} · ${variable.rules}`}
          />
        ))}
      </FormSection>
      <div className="flex justify-end">
        <Button type="submit" isLoading={form.formState.isSubmitting}>
          {t('actions.save')}
        </Button>
      </div>
    </form>
  );
}

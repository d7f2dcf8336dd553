import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { AdminPage } from '@/components/admin/admin-page';
import { SelectField } from '@/components/admin/select-field';
import { Button } from '@/components/ui/button';
import { SpinnerOverlay } from '@/components/ui/spinner';
import { Switch } from '@/components/ui/switch';
import { paths } from '@/config/paths';
import { locationOptionsQueryOptions } from '@/features/admin-locations/api/locations';
import {
  adminServerKeys,
  choiceQueries,
  createAdminServer,
  eggOptions,
  freeAllocationsKey,
} from '@/features/admin-servers/api/admin-servers';
import {
  type CreateServerFormValues,
  createServerDefaults,
  createServerFormSchema,
  toCreateServerInput,
} from '@/features/admin-servers/api/server-form';
import { OwnerPicker } from '@/features/admin-servers/components/owner-picker';
import { FormSection, TextField } from '@/features/admin-servers/components/server-form-fields';
import { flashActions } from '@/stores/flash-store';

const flashKey = 'admin:servers:new';

/** The new-server form: details, owner, placement (node + allocation or deployment), egg, limits, flags. */
export function CreateServerForm() {
  const { t } = useTranslation('admin');
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const form = useForm<CreateServerFormValues>({
    resolver: zodResolver(
      createServerFormSchema({
        required: t('servers.new.required'),
        wholeNumber: t('servers.new.whole_number'),
        pickOwner: t('servers.new.pick_owner'),
        pickAllocation: t('servers.new.pick_allocation'),
      }),
    ),
    defaultValues: createServerDefaults,
    mode: 'onTouched',
  });
  const { register, watch, setValue, getValues, formState } = form;
  const errors = formState.errors;
  const values = watch();
  const nodes = useQuery(choiceQueries.nodes()).data ?? [];
  const locations = useQuery(locationOptionsQueryOptions()).data ?? [];
  const eggs = useQuery(choiceQueries.eggs()).data;
  const allocations = useQuery(choiceQueries.freeAllocations(Number(values.nodeId) || 0)).data;
  const egg = eggs?.eggs.find((candidate) => String(candidate.id) === values.eggId);
  // A panel with one node (`aerie up`'s) has nothing to choose: that node is picked.
  const onlyNode = nodes.length === 1 ? String(nodes[0]?.id) : undefined;
  useEffect(() => {
    if (onlyNode !== undefined && getValues('nodeId') === '')
      setValue('nodeId', onlyNode, { shouldValidate: true });
  }, [onlyNode, getValues, setValue]);
  const create = useMutation({ mutationFn: createAdminServer });

  const pickEgg = (eggId: string) => {
    setValue('eggId', eggId, { shouldValidate: true });
    const chosen = eggs?.eggs.find((candidate) => String(candidate.id) === eggId);
    if (!chosen) return;
    setValue('startup', chosen.startup, { shouldValidate: true });
    setValue('image', Object.values(chosen.dockerImages)[0] ?? '', { shouldValidate: true });
    setValue(
      'variables',
      Object.fromEntries(chosen.variables.map((variable) => [variable.env, variable.defaultValue])),
    );
  };

  const submit = form.handleSubmit(async (formValues) => {
    flashActions().clearFlashes(flashKey);
    try {
      const server = await create.mutateAsync(toCreateServerInput(formValues));
      await queryClient.invalidateQueries({ queryKey: adminServerKeys.all });
      // Its allocations are no longer free: the Build tab must not offer its own primary back.
      await queryClient.invalidateQueries({ queryKey: freeAllocationsKey });
      navigate(paths.adminServer(server.id));
    } catch (error) {
      flashActions().clearAndAddHttpError({ key: flashKey, error });
      window.scrollTo?.({ top: 0 });
    }
  });

  const numberField = (name: keyof CreateServerFormValues & string, label: string, hint?: string) => (
    <TextField<CreateServerFormValues>
      register={register}
      name={name as 'memory'}
      label={label}
      hint={hint}
      error={(errors as Record<string, { message?: string } | undefined>)[name]?.message}
      type="text"
    />
  );

  return (
    <AdminPage title={t('servers.new.title')} flashKey={flashKey}>
      <form onSubmit={submit} noValidate className="relative space-y-6">
        <SpinnerOverlay visible={formState.isSubmitting} />
        <FormSection title={t('servers.new.core')}>
          <TextField<CreateServerFormValues>
            register={register}
            name="name"
            label={t('servers.new.name')}
            error={errors.name?.message}
          />
          <TextField<CreateServerFormValues>
            register={register}
            name="externalId"
            label={t('servers.new.external_id')}
            hint={t('servers.new.external_id_hint')}
          />
          <TextField<CreateServerFormValues>
            register={register}
            name="description"
            label={t('servers.new.description')}
            className="sm:col-span-2"
          />
          <OwnerPicker
            onPick={(owner) => setValue('ownerId', owner.id, { shouldValidate: true })}
            error={errors.ownerId?.message}
          />
        </FormSection>

        <FormSection title={t('servers.new.placement')}>
          <div className="flex gap-4 sm:col-span-2" role="radiogroup" aria-label={t('servers.new.placement')}>
            {(['allocation', 'deploy'] as const).map((mode) => (
              <label key={mode} className="inline-flex items-center gap-2 text-sm text-ink-200">
                <input type="radio" value={mode} {...register('mode')} />
                {t(mode === 'allocation' ? 'servers.new.mode_allocation' : 'servers.new.mode_deploy')}
              </label>
            ))}
          </div>
          {values.mode === 'allocation' ? (
            <>
              <SelectField
                label={t('servers.new.node')}
                value={values.nodeId}
                placeholder="—"
                options={nodes.map((node) => ({ value: String(node.id), label: node.name }))}
                onChange={(event) => {
                  const nodeId = event.target.value;
                  setValue('nodeId', nodeId);
                  setValue('allocationId', '');
                  setValue('additionalIds', []);
                }}
              />
              <SelectField
                label={t('servers.new.allocation')}
                value={values.allocationId}
                placeholder="—"
                error={errors.allocationId?.message}
                options={(allocations ?? []).map((allocation) => ({
                  value: String(allocation.id),
                  label: `${allocation.alias ?? allocation.ip}:${allocation.port}`,
                }))}
                onChange={(event) => {
                  const allocationId = event.target.value;
                  setValue('allocationId', allocationId, { shouldValidate: true });
                }}
              />
              {values.nodeId && allocations?.length === 0 && (
                <p className="text-sm text-amber-300 sm:col-span-2">{t('servers.new.no_allocations')}</p>
              )}
              {(allocations?.length ?? 0) > 1 && (
                <fieldset className="sm:col-span-2">
                  <legend className="mb-1.5 text-xs font-semibold uppercase tracking-wider text-ink-300">
                    {t('servers.new.additional')}
                  </legend>
                  <div className="flex flex-wrap gap-3">
                    {(allocations ?? [])
                      .filter((allocation) => String(allocation.id) !== values.allocationId)
                      .map((allocation) => (
                        <label
                          key={allocation.id}
                          className="inline-flex items-center gap-2 text-sm text-ink-200"
                        >
                          <input
                            type="checkbox"
                            value={String(allocation.id)}
                            {...register('additionalIds')}
                          />
                          {allocation.ip}:{allocation.port}
                        </label>
                      ))}
                  </div>
                </fieldset>
              )}
            </>
          ) : (
            <>
              <fieldset className="sm:col-span-2">
                <legend className="mb-1.5 text-xs font-semibold uppercase tracking-wider text-ink-300">
                  {t('servers.new.locations')}
                </legend>
                <div className="flex flex-wrap gap-3">
                  {locations.map((location) => (
                    <label key={location.id} className="inline-flex items-center gap-2 text-sm text-ink-200">
                      <input type="checkbox" value={String(location.id)} {...register('locationIds')} />
                      {location.short}
                    </label>
                  ))}
                </div>
                <p className="mt-1.5 text-xs text-ink-400">{t('servers.new.locations_hint')}</p>
              </fieldset>
              <TextField<CreateServerFormValues>
                register={register}
                name="portRange"
                label={t('servers.new.port_range')}
                hint={t('servers.new.port_range_hint')}
              />
              <Switch
                label={t('servers.new.dedicated_ip')}
                checked={values.dedicatedIp}
                onChange={(checked) => setValue('dedicatedIp', checked)}
              />
            </>
          )}
        </FormSection>

        <FormSection title={t('servers.new.egg')}>
          <SelectField
            label={t('servers.new.egg')}
            value={values.eggId}
            placeholder="—"
            error={errors.eggId?.message}
            options={eggOptions(eggs)}
            onChange={(event) => pickEgg(event.target.value)}
          />
          {egg && Object.keys(egg.dockerImages).length > 0 ? (
            <SelectField
              label={t('servers.new.image')}
              value={values.image}
              error={errors.image?.message}
              options={Object.entries(egg.dockerImages).map(([label, image]) => ({
                value: image,
                label: `${label} (${image})`,
              }))}
              onChange={(event) => {
                const image = event.target.value;
                setValue('image', image, { shouldValidate: true });
              }}
            />
          ) : (
            <TextField<CreateServerFormValues>
              register={register}
              name="image"
              label={t('servers.new.image')}
              error={errors.image?.message}
            />
          )}
          <TextField<CreateServerFormValues>
            register={register}
            name="startup"
            label={t('servers.new.startup')}
            error={errors.startup?.message}
            className="sm:col-span-2"
          />
          {egg?.variables.map((variable) => (
            <TextField<CreateServerFormValues>
              key={variable.env}
              register={register}
              name={`variables.${variable.env}`}
              label={variable.name}
              hint={`${variable.env} · ${variable.rules}`}
            />
          ))}
        </FormSection>

        <FormSection title={t('servers.new.limits')}>
          {numberField('memory', t('servers.new.memory'), t('servers.new.zero_unlimited'))}
          {numberField('swap', t('servers.new.swap'))}
          {numberField('disk', t('servers.new.disk'), t('servers.new.zero_unlimited'))}
          {numberField('cpu', t('servers.new.cpu'), t('servers.new.zero_unlimited'))}
          {numberField('io', t('servers.new.io'))}
          <TextField<CreateServerFormValues>
            register={register}
            name="threads"
            label={t('servers.new.threads')}
          />
        </FormSection>

        <FormSection title={t('servers.new.feature_limits')}>
          {numberField('databases', t('servers.new.databases'))}
          {numberField('allocationsLimit', t('servers.new.allocations_limit'))}
          {numberField('backups', t('servers.new.backups'))}
          <div className="flex flex-col gap-3 sm:col-span-2">
            <Switch
              label={t('servers.new.start_on_completion')}
              checked={values.startOnCompletion}
              onChange={(checked) => setValue('startOnCompletion', checked)}
            />
            <Switch
              label={t('servers.new.skip_scripts')}
              checked={values.skipScripts}
              onChange={(checked) => setValue('skipScripts', checked)}
            />
            <Switch
              label={t('servers.new.oom_disabled')}
              checked={values.oomDisabled}
              onChange={(checked) => setValue('oomDisabled', checked)}
            />
          </div>
        </FormSection>

        <div className="flex justify-end">
          <Button type="submit" isLoading={formState.isSubmitting}>
            {t('servers.new.submit')}
          </Button>
        </div>
      </form>
    </AdminPage>
  );
}

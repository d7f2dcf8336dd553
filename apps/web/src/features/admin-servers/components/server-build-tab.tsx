import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { SelectField } from '@/components/admin/select-field';
import { Button } from '@/components/ui/button';
import {
  type AdminServer,
  choiceQueries,
  updateServerBuild,
} from '@/features/admin-servers/api/admin-servers';
import { FormSection, TextField } from '@/features/admin-servers/components/server-form-fields';
import { flashActions } from '@/stores/flash-store';

interface BuildValues {
  memory: string;
  swap: string;
  disk: string;
  cpu: string;
  io: string;
  threads: string;
  databases: string;
  allocations: string;
  backups: string;
}

const orNull = (value: string) => (value.trim() === '' ? null : Number(value));

/** Limits, feature limits and allocations (primary, added, removed). */
export function ServerBuildTab({ server }: { server: AdminServer }) {
  const { t } = useTranslation('admin');
  const queryClient = useQueryClient();
  const [primary, setPrimary] = useState(String(server.allocationId));
  const [add, setAdd] = useState<number[]>([]);
  const [remove, setRemove] = useState<number[]>([]);
  const free = useQuery(choiceQueries.freeAllocations(server.nodeId)).data ?? [];
  const form = useForm<BuildValues>({
    defaultValues: {
      memory: String(server.limits.memory),
      swap: String(server.limits.swap),
      disk: String(server.limits.disk),
      cpu: String(server.limits.cpu),
      io: String(server.limits.io),
      threads: server.limits.threads ?? '',
      databases: server.featureLimits.databases === null ? '' : String(server.featureLimits.databases),
      allocations: server.featureLimits.allocations === null ? '' : String(server.featureLimits.allocations),
      backups: String(server.featureLimits.backups),
    },
  });
  const save = useMutation({
    mutationFn: (values: BuildValues) =>
      updateServerBuild(server.id, {
        allocation: Number(primary),
        limits: {
          memory: Number(values.memory),
          swap: Number(values.swap),
          disk: Number(values.disk),
          io: Number(values.io),
          cpu: Number(values.cpu),
          threads: values.threads.trim() || null,
        },
        feature_limits: {
          databases: orNull(values.databases),
          allocations: orNull(values.allocations),
          backups: orNull(values.backups),
        },
        oom_disabled: server.limits.oomDisabled,
        add_allocations: add,
        remove_allocations: remove,
      }),
  });
  const submit = form.handleSubmit(async (values) => {
    flashActions().clearFlashes('admin:server');
    try {
      await save.mutateAsync(values);
      setAdd([]);
      setRemove([]);
      await queryClient.invalidateQueries({ queryKey: ['admin'] });
      flashActions().addFlash({ key: 'admin:server', type: 'success', message: t('servers.view.saved') });
    } catch (error) {
      flashActions().clearAndAddHttpError({ key: 'admin:server', error });
    }
  });
  const field = (name: keyof BuildValues, label: string) => (
    <TextField<BuildValues> register={form.register} name={name} label={label} />
  );
  const toggle = (list: number[], id: number) =>
    list.includes(id) ? list.filter((entry) => entry !== id) : [...list, id];
  return (
    <form onSubmit={submit} noValidate className="space-y-6">
      <FormSection title={t('servers.view.build_title')}>
        {field('memory', t('servers.new.memory'))}
        {field('swap', t('servers.new.swap'))}
        {field('disk', t('servers.new.disk'))}
        {field('cpu', t('servers.new.cpu'))}
        {field('io', t('servers.new.io'))}
        {field('threads', t('servers.new.threads'))}
        {field('databases', t('servers.new.databases'))}
        {field('allocations', t('servers.new.allocations_limit'))}
        {field('backups', t('servers.new.backups'))}
      </FormSection>
      <FormSection title={t('servers.view.assigned')}>
        <SelectField
          label={t('servers.view.primary')}
          value={primary}
          onChange={(event) => setPrimary(event.target.value)}
          options={(server.allocations ?? []).map((allocation) => ({
            value: String(allocation.id),
            label: `${allocation.alias ?? allocation.ip}:${allocation.port}`,
          }))}
        />
        <fieldset>
          <legend className="mb-1.5 text-xs font-semibold uppercase tracking-wider text-ink-300">
            {t('servers.view.remove')}
          </legend>
          {(server.allocations ?? []).map((allocation) => (
            <label key={allocation.id} className="me-3 inline-flex items-center gap-2 text-sm text-ink-200">
              <input
                type="checkbox"
                checked={remove.includes(allocation.id)}
                onChange={() => setRemove((list) => toggle(list, allocation.id))}
              />
              {allocation.ip}:{allocation.port}
            </label>
          ))}
        </fieldset>
        <fieldset className="sm:col-span-2">
          <legend className="mb-1.5 text-xs font-semibold uppercase tracking-wider text-ink-300">
            {t('servers.view.add_allocations')}
          </legend>
          {free.map((allocation) => (
            <label key={allocation.id} className="me-3 inline-flex items-center gap-2 text-sm text-ink-200">
              <input
                type="checkbox"
                checked={add.includes(allocation.id)}
                onChange={() => setAdd((list) => toggle(list, allocation.id))}
              />
              {allocation.ip}:{allocation.port}
            </label>
          ))}
        </fieldset>
      </FormSection>
      <div className="flex justify-end">
        <Button type="submit" isLoading={form.formState.isSubmitting}>
          {t('actions.save')}
        </Button>
      </div>
    </form>
  );
}

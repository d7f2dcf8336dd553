import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { FormSelectField } from '@/components/admin/form-select-field';
import { FormSwitch } from '@/components/admin/form-switch';
import { FormField } from '@/components/ui/field';
import { locationOptionsQueryOptions } from '@/features/admin-locations/api/locations';
import type { NodeFormValues } from '@/features/admin-nodes/api/node-form';

function Group({ title, children }: { title: string; children: ReactNode }) {
  return (
    <fieldset className="space-y-4">
      <legend className="mb-3 text-xs font-semibold uppercase tracking-wider text-ink-400">{title}</legend>
      {children}
    </fieldset>
  );
}

/** Every setting of a node, shared by the create modal and the node's settings tab (inside their FormProvider). */
export function NodeFormFields() {
  const { t } = useTranslation('admin');
  const locations = useQuery(locationOptionsQueryOptions());
  const locationOptions = (locations.data ?? []).map((location) => ({
    value: String(location.id),
    label: location.long ? `${location.short} (${location.long})` : location.short,
  }));
  const Text = FormField<NodeFormValues>;
  return (
    <div className="space-y-8">
      <Group title={t('nodes.groups.details')}>
        <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
          <Text name="name" label={t('nodes.fields.name')} description={t('nodes.hints.name')} />
          <FormSelectField<NodeFormValues>
            name="locationId"
            label={t('nodes.fields.location')}
            placeholder={locations.isPending ? t('list.loading') : t('nodes.pick_location')}
            description={locations.data?.length === 0 ? t('nodes.no_locations') : undefined}
            options={locationOptions}
          />
        </div>
        <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
          <FormSwitch<NodeFormValues>
            name="public"
            label={t('nodes.fields.public')}
            description={t('nodes.hints.public')}
          />
          <FormSwitch<NodeFormValues>
            name="maintenanceMode"
            label={t('nodes.fields.maintenance')}
            description={t('nodes.hints.maintenance')}
          />
        </div>
      </Group>
      <Group title={t('nodes.groups.connection')}>
        <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
          <Text name="fqdn" label={t('nodes.fields.fqdn')} description={t('nodes.hints.fqdn')} />
          <FormSelectField<NodeFormValues>
            name="scheme"
            label={t('nodes.fields.scheme')}
            description={t('nodes.hints.scheme')}
            options={[
              { value: 'https', label: t('nodes.scheme.https') },
              { value: 'http', label: t('nodes.scheme.http') },
            ]}
          />
          <Text
            name="daemonListen"
            inputMode="numeric"
            label={t('nodes.fields.daemon_listen')}
            description={t('nodes.hints.daemon_listen')}
          />
          <Text
            name="daemonSftp"
            inputMode="numeric"
            label={t('nodes.fields.daemon_sftp')}
            description={t('nodes.hints.daemon_sftp')}
          />
          <Text
            name="daemonBase"
            label={t('nodes.fields.daemon_base')}
            description={t('nodes.hints.daemon_base')}
          />
          <FormSwitch<NodeFormValues>
            name="behindProxy"
            label={t('nodes.fields.behind_proxy')}
            description={t('nodes.hints.behind_proxy')}
          />
        </div>
      </Group>
      <Group title={t('nodes.groups.resources')}>
        <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
          <Text name="memory" inputMode="numeric" label={t('nodes.fields.memory')} />
          <Text
            name="memoryOverallocate"
            inputMode="numeric"
            label={t('nodes.fields.memory_overallocate')}
            description={t('nodes.hints.overallocate')}
          />
          <Text name="disk" inputMode="numeric" label={t('nodes.fields.disk')} />
          <Text
            name="diskOverallocate"
            inputMode="numeric"
            label={t('nodes.fields.disk_overallocate')}
            description={t('nodes.hints.overallocate')}
          />
          <Text
            name="uploadSize"
            inputMode="numeric"
            label={t('nodes.fields.upload_size')}
            description={t('nodes.hints.upload_size')}
          />
        </div>
      </Group>
    </div>
  );
}

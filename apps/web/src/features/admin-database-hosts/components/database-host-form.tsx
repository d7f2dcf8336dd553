import {
  type DatabaseHostFormValues,
  databaseHostFormSchema,
} from '@aerie/shared/databases/database-hosts-forms';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { FormProvider } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { FormSelectField } from '@/components/admin/form-select-field';
import { Button, buttonClasses } from '@/components/ui/button';
import { ContentBox } from '@/components/ui/content-box';
import { FormField } from '@/components/ui/field';
import { FlashMessageRender } from '@/components/ui/flash-message-render';
import {
  createDatabaseHost,
  type DatabaseHost,
  databaseHostKeys,
  nodeOptionsQueryOptions,
  updateDatabaseHost,
} from '@/features/admin-database-hosts/api/database-hosts';
import { useSaveForm } from '@/hooks/use-save-form';

/** Errors of the form (a refused connection above all) show inside it, next to what caused them. */
export const databaseHostFormFlashKey = 'admin:database-host:form';

const apiFields = {
  name: 'name',
  driver: 'driver',
  host: 'host',
  port: 'port',
  username: 'username',
  password: 'password',
  node_id: 'nodeId',
} as const;

const toFormValues = (host: DatabaseHost | undefined): DatabaseHostFormValues => ({
  name: host?.name ?? '',
  driver: host?.driver ?? 'mysql',
  host: host?.host ?? '',
  port: String(host?.port ?? 3306),
  username: host?.username ?? '',
  password: '',
  nodeId: host?.nodeId ? String(host.nodeId) : '',
});

interface DatabaseHostFormProps {
  /** The host being edited; none to create one. */
  host?: DatabaseHost;
  onSaved: (host: DatabaseHost) => void;
}

/** Name, driver, address, account and linked node of a database host; the panel connects before saving. */
export function DatabaseHostForm({ host, onSaved }: DatabaseHostFormProps) {
  const { t } = useTranslation('admin');
  const queryClient = useQueryClient();
  const nodes = useQuery(nodeOptionsQueryOptions());
  const { form, submit } = useSaveForm({
    schema: databaseHostFormSchema,
    defaultValues: toFormValues(host),
    flashKey: databaseHostFormFlashKey,
    apiFields,
    save: (values: DatabaseHostFormValues) => {
      const body = {
        name: values.name,
        driver: values.driver,
        host: values.host,
        port: Number(values.port),
        username: values.username,
        password: values.password || null,
        node_id: values.nodeId ? Number(values.nodeId) : null,
      };
      return host ? updateDatabaseHost(host.id, body) : createDatabaseHost(body);
    },
    onSaved: async (saved, savedForm) => {
      await queryClient.invalidateQueries({ queryKey: databaseHostKeys.all });
      savedForm.reset(toFormValues(saved));
      onSaved(saved);
    },
  });

  const nodeOptions = (nodes.data ?? []).map((node) => ({ value: String(node.id), label: node.name }));
  // A linked node the list does not know (yet) stays selectable by its id.
  if (host?.nodeId && !nodeOptions.some((option) => option.value === String(host.nodeId)))
    nodeOptions.push({
      value: String(host.nodeId),
      label: t('database_hosts.node_number', { id: host.nodeId }),
    });

  return (
    <FormProvider {...form}>
      <form onSubmit={submit} noValidate className="space-y-6">
        <ContentBox title={t('database_hosts.connection')}>
          <FlashMessageRender byKey={databaseHostFormFlashKey} className="mb-5" />
          <div className="grid grid-cols-1 gap-5 md:grid-cols-2">
            <FormField<DatabaseHostFormValues>
              name="name"
              label={t('database_hosts.name')}
              description={t('database_hosts.name_hint')}
            />
            <FormSelectField<DatabaseHostFormValues>
              name="driver"
              label={t('database_hosts.driver')}
              options={(['mysql', 'postgres'] as const).map((driver) => ({
                value: driver,
                label: t(`database_hosts.drivers.${driver}`),
              }))}
            />
            <FormField<DatabaseHostFormValues>
              name="host"
              label={t('database_hosts.host')}
              description={t('database_hosts.host_hint')}
              spellCheck={false}
            />
            <FormField<DatabaseHostFormValues>
              name="port"
              label={t('database_hosts.port')}
              inputMode="numeric"
            />
            <FormField<DatabaseHostFormValues>
              name="username"
              label={t('database_hosts.username')}
              description={t('database_hosts.username_hint')}
              autoComplete="off"
              spellCheck={false}
            />
            <FormField<DatabaseHostFormValues>
              name="password"
              type="password"
              label={t('database_hosts.password')}
              placeholder={host ? t('database_hosts.password_keep') : undefined}
              description={host ? t('database_hosts.password_keep') : t('database_hosts.password_new')}
              autoComplete="new-password"
            />
            <FormSelectField<DatabaseHostFormValues>
              name="nodeId"
              label={t('database_hosts.node')}
              description={t('database_hosts.node_hint')}
              placeholder={t('database_hosts.no_node')}
              options={nodeOptions}
            />
          </div>
        </ContentBox>
        <div className="flex justify-end gap-3">
          <Link to="/admin/databases" className={buttonClasses('secondary', 'md')}>
            {t('actions.cancel')}
          </Link>
          <Button type="submit" isLoading={form.formState.isSubmitting}>
            {host ? t('database_hosts.save') : t('database_hosts.submit_create')}
          </Button>
        </div>
      </form>
    </FormProvider>
  );
}

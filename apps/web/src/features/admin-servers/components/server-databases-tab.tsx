import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { FormProvider } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { type AdminColumn, AdminTable } from '@/components/admin/admin-table';
import { FormSelectField } from '@/components/admin/form-select-field';
import { Button } from '@/components/ui/button';
import { ConfirmationModal } from '@/components/ui/confirmation-modal';
import { ContentBox } from '@/components/ui/content-box';
import { FormField } from '@/components/ui/field';
import { SpinnerBlock } from '@/components/ui/spinner';
import { databaseHostOptionsQueryOptions } from '@/features/admin-database-hosts/api/database-hosts';
import type { AdminServer } from '@/features/admin-servers/api/admin-servers';
import {
  type AdminServerDatabase,
  adminServerDatabasesQueryOptions,
  createAdminServerDatabase,
  deleteAdminServerDatabase,
  resetServerDatabasePassword,
  type ServerDatabaseFormValues,
  serverDatabaseFormDefaults,
  serverDatabaseFormSchema,
  serverDatabaseKeys,
  toServerDatabaseBody,
} from '@/features/admin-servers/api/server-databases';
import { useAdminCan } from '@/hooks/use-admin-can';
import { useSaveForm } from '@/hooks/use-save-form';
import { flashActions } from '@/stores/flash-store';

/** The server page's flashes (AdminPage's `flashKey`), where every tab shows its outcome. */
const flashKey = 'admin:server';

const apiFields = { host: 'host', database: 'database', remote: 'remote' } as const;

type Pending = { action: 'reset' | 'delete'; database: AdminServerDatabase } | null;

/**
 * The Databases tab (Pterodactyl's admin "Databases"): the server's databases with their host, each with Reset
 * Password and Delete behind a confirmation, and Create New Database on a chosen host.
 */
export function ServerDatabasesTab({ server }: { server: AdminServer }) {
  const canWrite = useAdminCan('server_databases.write');
  const { t } = useTranslation('admin');
  const databases = useQuery(adminServerDatabasesQueryOptions(server.id));
  const hosts = useQuery(databaseHostOptionsQueryOptions());

  const loadError = databases.error ?? hosts.error;
  useEffect(() => {
    if (loadError) flashActions().clearAndAddHttpError({ key: flashKey, error: loadError });
  }, [loadError]);

  return (
    <div className="grid grid-cols-1 gap-6 xl:grid-cols-3">
      <div className="xl:col-span-2">
        <ContentBox title={t('servers.view.databases.title')}>
          {databases.data ? (
            <DatabaseTable server={server} databases={databases.data} />
          ) : (
            databases.isPending && <SpinnerBlock />
          )}
        </ContentBox>
      </div>
      {canWrite && <CreateDatabase server={server} count={databases.data?.length} />}
    </div>
  );
}

function DatabaseTable({ server, databases }: { server: AdminServer; databases: AdminServerDatabase[] }) {
  const canWrite = useAdminCan('server_databases.write');
  const { t } = useTranslation('admin');
  const queryClient = useQueryClient();
  const [pending, setPending] = useState<Pending>(null);
  const act = useMutation({
    mutationFn: async ({ action, database }: NonNullable<Pending>) => {
      if (action === 'reset') await resetServerDatabasePassword(server.id, database.id);
      else await deleteAdminServerDatabase(server.id, database.id);
    },
  });

  const confirm = async () => {
    if (!pending) return;
    const { action, database } = pending;
    flashActions().clearFlashes(flashKey);
    try {
      await act.mutateAsync(pending);
      if (action === 'delete') {
        queryClient.setQueryData<AdminServerDatabase[]>(serverDatabaseKeys.list(server.id), (current) =>
          current?.filter((item) => item.id !== database.id),
        );
      }
      flashActions().addFlash({
        key: flashKey,
        type: 'success',
        message:
          action === 'reset'
            ? t('servers.view.databases.password_reset', { name: database.database })
            : t('servers.view.databases.deleted', { name: database.database }),
      });
    } catch (error) {
      flashActions().clearAndAddHttpError({ key: flashKey, error });
    } finally {
      setPending(null);
    }
  };

  const columns: AdminColumn<AdminServerDatabase>[] = [
    {
      key: 'database',
      header: t('servers.view.databases.columns.database'),
      cell: (database) => <code className="font-mono text-xs">{database.database}</code>,
    },
    {
      key: 'username',
      header: t('servers.view.databases.columns.username'),
      cell: (database) => <code className="font-mono text-xs">{database.username}</code>,
    },
    {
      key: 'remote',
      header: t('servers.view.databases.columns.remote'),
      cell: (database) => <code className="font-mono text-xs">{database.remote}</code>,
    },
    {
      key: 'host',
      header: t('servers.view.databases.columns.host'),
      cell: (database) =>
        database.host ? (
          <>
            <span className="block">{database.host.name}</span>
            <code className="font-mono text-xs text-ink-400">{`${database.host.host}:${database.host.port}`}</code>
          </>
        ) : (
          t('servers.view.databases.host_number', { id: database.hostId })
        ),
    },
    {
      key: 'max_connections',
      header: t('servers.view.databases.columns.max_connections'),
      cell: (database) => database.maxConnections || t('servers.view.databases.unlimited'),
    },
    {
      key: 'actions',
      header: <span className="sr-only">{t('servers.view.databases.columns.actions')}</span>,
      className: 'text-end',
      cell: (database) =>
        canWrite && (
          <div className="flex justify-end gap-2">
            <Button size="sm" variant="secondary" onClick={() => setPending({ action: 'reset', database })}>
              {t('servers.view.databases.reset_password')}
            </Button>
            <Button size="sm" variant="danger" onClick={() => setPending({ action: 'delete', database })}>
              {t('servers.view.databases.delete')}
            </Button>
          </div>
        ),
    },
  ];

  const reset = pending?.action === 'reset';
  return (
    <>
      <AdminTable
        caption={t('servers.view.databases.title')}
        columns={columns}
        rows={databases}
        rowKey={(database) => database.id}
        empty={t('servers.view.databases.empty')}
      />
      <ConfirmationModal
        visible={pending !== null}
        onClose={() => setPending(null)}
        isLoading={act.isPending}
        title={reset ? t('servers.view.databases.reset_title') : t('servers.view.databases.delete_title')}
        confirmLabel={reset ? t('servers.view.databases.reset_password') : t('servers.view.databases.delete')}
        cancelLabel={t('actions.cancel')}
        onConfirm={() => void confirm()}
      >
        {pending &&
          (reset
            ? t('servers.view.databases.reset_confirm', { name: pending.database.database })
            : t('servers.view.databases.delete_confirm', { name: pending.database.database }))}
      </ConfirmationModal>
    </>
  );
}

/** Create New Database: the host (the one linked to the server's node first), the name and where from. */
function CreateDatabase({ server, count }: { server: AdminServer; count: number | undefined }) {
  const { t } = useTranslation('admin');
  const queryClient = useQueryClient();
  const hosts = useQuery(databaseHostOptionsQueryOptions());
  const create = useMutation({
    mutationFn: (values: ServerDatabaseFormValues) =>
      createAdminServerDatabase(server.id, toServerDatabaseBody(values)),
  });
  const { form, submit } = useSaveForm({
    schema: serverDatabaseFormSchema,
    defaultValues: serverDatabaseFormDefaults,
    flashKey,
    apiFields,
    save: async (values: ServerDatabaseFormValues) => ({ values, created: await create.mutateAsync(values) }),
    onSaved: ({ values, created }, savedForm) => {
      queryClient.setQueryData<AdminServerDatabase[]>(serverDatabaseKeys.list(server.id), (current) =>
        current ? [...current, created] : current,
      );
      savedForm.reset({ ...serverDatabaseFormDefaults, host: values.host });
      flashActions().addFlash({
        key: flashKey,
        type: 'success',
        message: t('servers.view.databases.created', { name: created.database }),
      });
    },
  });

  // Once the hosts are known, the one linked to the server's node (else the first) is picked unless one already is.
  useEffect(() => {
    const list = hosts.data;
    if (!list?.length || form.getValues('host')) return;
    const preferred = list.find((host) => host.nodeId === server.nodeId) ?? list[0];
    if (preferred) form.setValue('host', String(preferred.id));
  }, [hosts.data, server.nodeId, form]);

  const limit = server.featureLimits.databases;
  const noHosts = hosts.data?.length === 0;
  return (
    <ContentBox title={t('servers.view.databases.create_title')}>
      <FormProvider {...form}>
        <form onSubmit={submit} noValidate className="space-y-4">
          <FormSelectField<ServerDatabaseFormValues>
            name="host"
            label={t('servers.view.databases.host')}
            description={t('servers.view.databases.host_hint')}
            placeholder={t('servers.view.databases.host_placeholder')}
            options={(hosts.data ?? []).map((host) => ({
              value: String(host.id),
              label: `${host.name} (${host.host}:${host.port})`,
            }))}
          />
          {noHosts && (
            <p className="text-xs text-ink-400">
              {t('servers.view.databases.no_hosts')}{' '}
              <Link to="/admin/databases/new" className="text-brand-300 hover:underline">
                {t('servers.view.databases.add_host')}
              </Link>
            </p>
          )}
          <FormField<ServerDatabaseFormValues>
            name="database"
            label={t('servers.view.databases.name')}
            description={t('servers.view.databases.name_hint', { id: server.id })}
            autoComplete="off"
            spellCheck={false}
          />
          <FormField<ServerDatabaseFormValues>
            name="remote"
            label={t('servers.view.databases.remote')}
            description={t('servers.view.databases.remote_hint')}
            autoComplete="off"
            spellCheck={false}
          />
          {count !== undefined && (
            <p className="text-xs text-ink-400">
              {limit === null
                ? t('servers.view.databases.no_limit', { count })
                : t('servers.view.databases.limit', { count, limit })}
            </p>
          )}
          <div className="flex justify-end">
            <Button type="submit" isLoading={create.isPending} disabled={noHosts}>
              {t('servers.view.databases.submit')}
            </Button>
          </div>
        </form>
      </FormProvider>
    </ContentBox>
  );
}

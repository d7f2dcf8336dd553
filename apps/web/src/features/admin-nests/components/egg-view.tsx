import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { AdminPage } from '@/components/admin/admin-page';
import { Button } from '@/components/ui/button';
import { NotFoundPage } from '@/components/ui/screen-block';
import { SpinnerBlock } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import {
  deleteEgg,
  type Egg,
  eggQueryOptions,
  exportEgg,
  nestsQueryOptions,
  useNestsMutation,
} from '@/features/admin-nests/api/nests';
import { DeleteButton } from '@/features/admin-nests/components/delete-button';
import {
  EggConfigurationForm,
  EggScriptForm,
  eggFlashKey,
} from '@/features/admin-nests/components/egg-forms';
import { EggVariables } from '@/features/admin-nests/components/egg-variables';
import { useAdminCan } from '@/hooks/use-admin-can';
import { flashActions } from '@/stores/flash-store';

/** Saves text as a file through a temporary object URL. */
function download(name: string, text: string) {
  const url = URL.createObjectURL(new Blob([text], { type: 'application/json' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  URL.revokeObjectURL(url);
}

/** `egg-<name in kebab case>.json`, the name the panel gives the download. */
const exportFileName = (name: string) =>
  `egg-${
    name
      .trim()
      .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
      .replace(/\s+/g, '-')
      .toLowerCase()
      .replace(/[^a-z0-9._-]+/g, '') || 'export'
  }.json`;

function ExportButton({ egg }: { egg: Egg }) {
  const { t } = useTranslation('admin');
  const [busy, setBusy] = useState(false);
  const run = async () => {
    setBusy(true);
    try {
      download(exportFileName(egg.name), await exportEgg(egg));
    } catch (error) {
      flashActions().clearAndAddHttpError({ key: eggFlashKey, error });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button variant="secondary" onClick={run} isLoading={busy}>
      {t('nests.egg.export')}
    </Button>
  );
}

/** /admin/nests/egg/:id — one egg: configuration, install script, variables, export and delete. */
export function EggView({ eggId }: { eggId: number }) {
  const { t } = useTranslation('admin');
  const navigate = useNavigate();
  const nests = useQuery(nestsQueryOptions());
  const nest = nests.data?.find((item) => item.eggs.some((egg) => egg.id === eggId));
  const egg = useQuery({ ...eggQueryOptions(nest?.id ?? 0, eggId), enabled: nest !== undefined });
  const remove = useNestsMutation(deleteEgg);
  const canWrite = useAdminCan('eggs.write');

  if (nests.isError || egg.isError || (nests.data && !nest)) {
    return <NotFoundPage onBack={() => navigate(paths.adminSection('nests'))} />;
  }
  if (!nest || !egg.data) return <SpinnerBlock />;
  const data = egg.data;

  return (
    <AdminPage
      title={data.name}
      description={data.description ?? undefined}
      flashKey={eggFlashKey}
      actions={
        <>
          <Link
            to={paths.adminSection(`nests/view/${nest.id}`)}
            className="self-center text-sm text-brand-300 hover:underline"
          >
            {nest.name}
          </Link>
          <ExportButton egg={data} />
          {canWrite && (
            <DeleteButton
              title={t('nests.egg.delete_title', { name: data.name })}
              text={t('nests.egg.delete_text')}
              onDelete={async () => {
                await remove.mutateAsync([data]);
                navigate(paths.adminSection(`nests/view/${nest.id}`));
              }}
            />
          )}
        </>
      }
    >
      <div className="space-y-6">
        <EggConfigurationForm key={`config-${data.id}`} egg={data} />
        <EggScriptForm key={`script-${data.id}`} egg={data} />
        <EggVariables egg={data} />
      </div>
    </AdminPage>
  );
}

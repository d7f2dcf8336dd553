import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { AdminPage } from '@/components/admin/admin-page';
import { type AdminColumn, AdminTable } from '@/components/admin/admin-table';
import { buttonClasses } from '@/components/ui/button';
import { Pagination } from '@/components/ui/pagination';
import { SpinnerBlock } from '@/components/ui/spinner';
import {
  type OAuthProvider,
  oauthProvidersQueryOptions,
} from '@/features/admin-oauth-providers/api/oauth-providers';
import { usePageParam } from '@/hooks/use-page-param';
import { flashActions } from '@/stores/flash-store';

export const providersFlashKey = 'admin:oauth-providers';

/** /admin/oauth-providers (root admins only): every identity provider, each opening its page. */
export function ProvidersList() {
  const { t } = useTranslation('admin');
  const [page, setPage] = usePageParam();
  const providers = useQuery(oauthProvidersQueryOptions(page));

  useEffect(() => {
    if (providers.error)
      flashActions().clearAndAddHttpError({ key: providersFlashKey, error: providers.error });
  }, [providers.error]);

  const columns: AdminColumn<OAuthProvider>[] = [
    {
      key: 'name',
      header: t('oauth_providers.columns.name'),
      cell: (provider) => (
        <Link
          to={`/admin/oauth-providers/${provider.id}`}
          className="font-medium text-brand-400 hover:underline"
        >
          {provider.name}
        </Link>
      ),
    },
    {
      key: 'slug',
      header: t('oauth_providers.columns.slug'),
      cell: (provider) => <code className="font-mono text-xs">{provider.slug}</code>,
    },
    {
      key: 'kind',
      header: t('oauth_providers.columns.kind'),
      cell: (provider) => t(`oauth_providers.kinds.${provider.kind}`),
    },
    {
      key: 'enabled',
      header: t('oauth_providers.columns.enabled'),
      cell: (provider) =>
        provider.enabled ? (
          <span className="text-emerald-400">{t('oauth_providers.state.enabled')}</span>
        ) : (
          <span className="text-ink-400">{t('oauth_providers.state.disabled')}</span>
        ),
    },
    {
      key: 'redirect',
      header: t('oauth_providers.columns.redirect_uri'),
      cell: (provider) => <code className="break-all font-mono text-xs">{provider.redirectUri}</code>,
    },
  ];

  return (
    <AdminPage
      title={t('oauth_providers.title')}
      description={t('oauth_providers.description')}
      flashKey={providersFlashKey}
      actions={
        <Link to="/admin/oauth-providers/new" className={buttonClasses('primary', 'md')}>
          {t('oauth_providers.create')}
        </Link>
      }
    >
      {!providers.data ? (
        providers.isPending ? (
          <SpinnerBlock />
        ) : null
      ) : (
        <>
          <AdminTable
            caption={t('oauth_providers.title')}
            columns={columns}
            rows={providers.data.items}
            rowKey={(provider) => provider.id}
            empty={t('oauth_providers.empty')}
          />
          <div className="mt-4 flex flex-wrap items-center justify-between gap-3 text-xs text-ink-400">
            <span>{t('list.total', { count: providers.data.total })}</span>
            <Pagination
              currentPage={providers.data.currentPage}
              totalPages={providers.data.totalPages}
              onPageSelect={setPage}
            />
          </div>
        </>
      )}
    </AdminPage>
  );
}

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { AdminPage } from '@/components/admin/admin-page';
import { Button } from '@/components/ui/button';
import { ConfirmationModal } from '@/components/ui/confirmation-modal';
import { NotFoundPage } from '@/components/ui/screen-block';
import { SpinnerBlock } from '@/components/ui/spinner';
import {
  deleteOAuthProvider,
  oauthProviderKeys,
  oauthProviderQueryOptions,
} from '@/features/admin-oauth-providers/api/oauth-providers';
import { ProviderForm } from '@/features/admin-oauth-providers/components/provider-form';
import { providersFlashKey } from '@/features/admin-oauth-providers/components/providers-list';
import { ApiError } from '@/lib/api-client';
import { flashActions } from '@/stores/flash-store';

const pageFlashKey = 'admin:oauth-provider';

/** /admin/oauth-providers/new */
export function NewProviderPage() {
  const { t } = useTranslation('admin');
  const navigate = useNavigate();
  return (
    <AdminPage title={t('oauth_providers.new_title')} description={t('oauth_providers.edit_description')}>
      <ProviderForm
        onSaved={(provider) => {
          flashActions().addFlash({
            key: pageFlashKey,
            type: 'success',
            message: t('oauth_providers.created'),
          });
          navigate(`/admin/oauth-providers/${provider.id}`);
        }}
      />
    </AdminPage>
  );
}

/** /admin/oauth-providers/:id: the provider's form, its redirect URI, and its deletion. */
export function ProviderPage() {
  const { t } = useTranslation('admin');
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const id = Number(useParams().id);
  const valid = Number.isSafeInteger(id) && id > 0;
  const provider = useQuery({ ...oauthProviderQueryOptions(id), enabled: valid, retry: false });
  const [confirming, setConfirming] = useState(false);
  const remove = useMutation({ mutationFn: () => deleteOAuthProvider(id) });

  if (!valid || (provider.error instanceof ApiError && provider.error.status === 404))
    return <NotFoundPage />;

  const handleDelete = async () => {
    flashActions().clearFlashes(pageFlashKey);
    try {
      await remove.mutateAsync();
      flashActions().addFlash({
        key: providersFlashKey,
        type: 'success',
        message: t('oauth_providers.deleted'),
      });
      navigate('/admin/oauth-providers');
      queryClient.removeQueries({ queryKey: oauthProviderKeys.detail(id) });
      void queryClient.invalidateQueries({ queryKey: [...oauthProviderKeys.all, 'list'] });
    } catch (error) {
      setConfirming(false);
      flashActions().clearAndAddHttpError({ key: pageFlashKey, error });
    }
  };

  return (
    <AdminPage
      title={provider.data?.name ?? t('oauth_providers.title')}
      description={t('oauth_providers.edit_description')}
      flashKey={pageFlashKey}
      actions={
        provider.data && (
          <Button variant="danger" onClick={() => setConfirming(true)}>
            {t('oauth_providers.delete')}
          </Button>
        )
      }
    >
      {provider.data ? (
        <ProviderForm
          key={provider.data.id}
          provider={provider.data}
          onSaved={() => {
            flashActions().clearFlashes(pageFlashKey);
            flashActions().addFlash({
              key: pageFlashKey,
              type: 'success',
              message: t('oauth_providers.saved'),
            });
          }}
        />
      ) : provider.isPending ? (
        <SpinnerBlock />
      ) : null}
      <ConfirmationModal
        visible={confirming}
        onClose={() => setConfirming(false)}
        title={t('oauth_providers.delete_title')}
        confirmLabel={t('oauth_providers.delete')}
        cancelLabel={t('actions.cancel')}
        onConfirm={() => void handleDelete()}
        isLoading={remove.isPending}
      >
        {t('oauth_providers.delete_text', { name: provider.data?.name ?? '' })}
      </ConfirmationModal>
    </AdminPage>
  );
}

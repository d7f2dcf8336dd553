import { oauthProviderKinds } from '@aerie/shared/oauth/oauth-wire';
import { useQueryClient } from '@tanstack/react-query';
import { FormProvider, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { FormSelectField } from '@/components/admin/form-select-field';
import { FormSwitch } from '@/components/admin/form-switch';
import { Button, buttonClasses } from '@/components/ui/button';
import { ContentBox } from '@/components/ui/content-box';
import { CopyOnClick } from '@/components/ui/copy-on-click';
import { FormField, FormTextareaField } from '@/components/ui/field';
import { FlashMessageRender } from '@/components/ui/flash-message-render';
import {
  createOAuthProvider,
  type OAuthProvider,
  oauthProviderKeys,
  updateOAuthProvider,
} from '@/features/admin-oauth-providers/api/oauth-providers';
import {
  type ProviderFormValues,
  providerFormFields,
  providerFormSchema,
  providerFormValues,
  toCreateBody,
  toUpdateBody,
} from '@/features/admin-oauth-providers/api/provider-form';
import { useSaveForm } from '@/hooks/use-save-form';

export const providerFormFlashKey = 'admin:oauth-provider:form';

/** Where the provider sends the browser back: the panel's answer once saved, this origin's guess before. */
const redirectUriHint = (slug: string) =>
  `${window.location.origin}/auth/oauth/${slug.trim().toLowerCase() || '<slug>'}/callback`;

/** Kind, names, the client's credentials, scopes and who may sign in through a provider. */
export function ProviderForm({
  provider,
  onSaved,
}: {
  provider?: OAuthProvider;
  onSaved: (provider: OAuthProvider) => void;
}) {
  const { t } = useTranslation('admin');
  const queryClient = useQueryClient();
  const { form, submit } = useSaveForm({
    schema: providerFormSchema(!provider),
    defaultValues: providerFormValues(provider),
    flashKey: providerFormFlashKey,
    apiFields: providerFormFields,
    save: (values: ProviderFormValues) =>
      provider
        ? updateOAuthProvider(provider.id, toUpdateBody(values))
        : createOAuthProvider(toCreateBody(values)),
    onSaved: async (saved, savedForm) => {
      queryClient.setQueryData(oauthProviderKeys.detail(saved.id), saved);
      await queryClient.invalidateQueries({ queryKey: [...oauthProviderKeys.all, 'list'] });
      savedForm.reset(providerFormValues(saved));
      onSaved(saved);
    },
  });
  const kind = useWatch({ control: form.control, name: 'kind' });
  const slug = useWatch({ control: form.control, name: 'slug' });

  return (
    <FormProvider {...form}>
      <form onSubmit={submit} noValidate className="space-y-6">
        <ContentBox title={t('oauth_providers.details')}>
          <FlashMessageRender byKey={providerFormFlashKey} className="mb-5" />
          <div className="grid grid-cols-1 gap-5 md:grid-cols-2">
            <FormSelectField<ProviderFormValues>
              name="kind"
              label={t('oauth_providers.kind')}
              description={t('oauth_providers.kind_hint')}
              options={oauthProviderKinds.map((value) => ({
                value,
                label: t(`oauth_providers.kinds.${value}`),
              }))}
            />
            <FormField<ProviderFormValues>
              name="name"
              label={t('oauth_providers.name')}
              description={t('oauth_providers.name_hint')}
            />
            <FormField<ProviderFormValues>
              name="slug"
              label={t('oauth_providers.slug')}
              description={t('oauth_providers.slug_hint')}
              autoCapitalize="none"
              spellCheck={false}
              className="font-mono"
            />
            {kind === 'oidc' && (
              <FormField<ProviderFormValues>
                name="issuer"
                label={t('oauth_providers.issuer')}
                description={t('oauth_providers.issuer_hint')}
                placeholder="https://accounts.example.com"
                // An example address, not words to translate.
                translate="no"
                autoCapitalize="none"
                spellCheck={false}
                className="font-mono"
              />
            )}
          </div>
          <div className="mt-5 rounded-lg border border-ink-800 bg-ink-950/40 px-4 py-3">
            <p className="text-xs font-semibold uppercase tracking-wider text-ink-400">
              {t('oauth_providers.redirect_uri')}
            </p>
            {provider ? (
              <CopyOnClick text={provider.redirectUri} className="mt-1 font-mono text-sm text-ink-100">
                {provider.redirectUri}
              </CopyOnClick>
            ) : (
              <p className="mt-1 break-all font-mono text-sm text-ink-100" translate="no">
                {redirectUriHint(slug)}
              </p>
            )}
            <p className="mt-1 text-xs text-ink-400">
              {provider ? t('oauth_providers.redirect_uri_hint') : t('oauth_providers.redirect_uri_new_hint')}
            </p>
          </div>
        </ContentBox>

        <ContentBox title={t('oauth_providers.client')}>
          <div className="grid grid-cols-1 gap-5 md:grid-cols-2">
            <FormField<ProviderFormValues>
              name="clientId"
              label={t('oauth_providers.client_id')}
              autoComplete="off"
              spellCheck={false}
              className="font-mono"
            />
            <FormField<ProviderFormValues>
              name="clientSecret"
              type="password"
              label={t('oauth_providers.client_secret')}
              description={
                !provider
                  ? t('oauth_providers.client_secret_hint')
                  : provider.clientSecretSet
                    ? t('oauth_providers.client_secret_set')
                    : t('oauth_providers.client_secret_unset')
              }
              autoComplete="new-password"
            />
            <FormField<ProviderFormValues>
              name="scopes"
              label={t('oauth_providers.scopes')}
              description={t('oauth_providers.scopes_hint')}
              autoCapitalize="none"
              spellCheck={false}
              className="font-mono"
            />
          </div>
        </ContentBox>

        <ContentBox title={t('oauth_providers.access')}>
          <div className="space-y-5">
            <FormSwitch<ProviderFormValues>
              name="enabled"
              label={t('oauth_providers.enabled')}
              description={t('oauth_providers.enabled_hint')}
            />
            <FormSwitch<ProviderFormValues>
              name="createAccounts"
              label={t('oauth_providers.create_accounts')}
              description={t('oauth_providers.create_accounts_hint')}
            />
            <FormSwitch<ProviderFormValues>
              name="allowTwoFactorAccounts"
              label={t('oauth_providers.allow_two_factor')}
              description={t('oauth_providers.allow_two_factor_hint')}
            />
            <FormTextareaField<ProviderFormValues>
              name="emailDomains"
              label={t('oauth_providers.email_domains')}
              description={t('oauth_providers.email_domains_hint')}
              rows={3}
              autoCapitalize="none"
              spellCheck={false}
              className="font-mono"
            />
          </div>
        </ContentBox>

        <div className="flex justify-end gap-3">
          <Link to="/admin/oauth-providers" className={buttonClasses('secondary', 'md')}>
            {t('actions.cancel')}
          </Link>
          <Button type="submit" isLoading={form.formState.isSubmitting}>
            {provider ? t('oauth_providers.save') : t('oauth_providers.submit_create')}
          </Button>
        </div>
      </form>
    </FormProvider>
  );
}

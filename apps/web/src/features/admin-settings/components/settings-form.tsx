import {
  type PanelSettingsFormValues,
  panelSettingsFormSchema,
} from '@aerie/shared/panel-settings/panel-settings-forms';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { FormProvider } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { AdminPage } from '@/components/admin/admin-page';
import { FormSelectField } from '@/components/admin/form-select-field';
import { FormSwitch } from '@/components/admin/form-switch';
import { Button } from '@/components/ui/button';
import { ContentBox } from '@/components/ui/content-box';
import { FormField } from '@/components/ui/field';
import { SpinnerBlock } from '@/components/ui/spinner';
import {
  type PanelSettings,
  panelSettingsKeys,
  panelSettingsQueryOptions,
  sendTestMail,
  updatePanelSettings,
} from '@/features/admin-settings/api/panel-settings';
import { useAdminCan } from '@/hooks/use-admin-can';
import { useSaveForm } from '@/hooks/use-save-form';
import { languageOptions } from '@/lib/language-options';
import { flashActions } from '@/stores/flash-store';
import { useUserStore } from '@/stores/user-store';

const flashKey = 'admin:settings';

/** The shared form, plus the single sign-on requirement (a switch, nothing to check). */
const settingsFormSchema = panelSettingsFormSchema.safeExtend({ ssoRequired: z.boolean() });
type SettingsFormValues = PanelSettingsFormValues & { ssoRequired: boolean };

/** The API's field names → the form's, so a 422 shows under its field. */
const apiFields = {
  app_name: 'appName',
  '2fa_required': 'twoFactorRequired',
  mail_url: 'mailUrl',
  mail_from: 'mailFrom',
  recaptcha_enabled: 'recaptchaEnabled',
  recaptcha_site_key: 'recaptchaSiteKey',
  recaptcha_secret_key: 'recaptchaSecretKey',
  default_language: 'defaultLanguage',
  allocations_enabled: 'allocationsEnabled',
  allocations_range_start: 'allocationsRangeStart',
  allocations_range_end: 'allocationsRangeEnd',
  sso_required: 'ssoRequired',
} as const;

const toFormValues = (settings: PanelSettings): SettingsFormValues => ({
  appName: settings.appName,
  twoFactorRequired: String(settings.twoFactorRequired) as PanelSettingsFormValues['twoFactorRequired'],
  mailUrl: settings.mailUrl,
  mailFrom: settings.mailFrom,
  recaptchaEnabled: settings.recaptchaEnabled,
  recaptchaSiteKey: settings.recaptchaSiteKey,
  recaptchaSecretKey: '',
  defaultLanguage: settings.defaultLanguage,
  allocationsEnabled: settings.allocationsEnabled,
  allocationsRangeStart: String(settings.allocationsRangeStart),
  allocationsRangeEnd: String(settings.allocationsRangeEnd),
  ssoRequired: settings.ssoRequired,
});

/** /admin/settings: product name, language, 2FA requirement, mail, reCAPTCHA and users' own allocations. */
export function AdminSettingsPage() {
  const { t } = useTranslation('admin');
  const settings = useQuery(panelSettingsQueryOptions());
  return (
    <AdminPage title={t('settings.title')} description={t('settings.description')} flashKey={flashKey}>
      {settings.data ? <SettingsForm settings={settings.data} /> : <SpinnerBlock />}
    </AdminPage>
  );
}

function SettingsForm({ settings }: { settings: PanelSettings }) {
  const { t } = useTranslation('admin');
  const queryClient = useQueryClient();
  const email = useUserStore((state) => state.user?.email ?? '');
  const canWrite = useAdminCan('settings.write');
  const { form, submit } = useSaveForm({
    schema: settingsFormSchema,
    defaultValues: toFormValues(settings),
    flashKey,
    apiFields,
    save: (values: SettingsFormValues) =>
      updatePanelSettings({
        app_name: values.appName,
        '2fa_required': Number(values.twoFactorRequired),
        mail_url: values.mailUrl || null,
        mail_from: values.mailFrom,
        recaptcha_enabled: values.recaptchaEnabled,
        recaptcha_site_key: values.recaptchaSiteKey || null,
        recaptcha_secret_key: values.recaptchaSecretKey || null,
        default_language: values.defaultLanguage,
        allocations_enabled: values.allocationsEnabled,
        allocations_range_start: Number(values.allocationsRangeStart),
        allocations_range_end: Number(values.allocationsRangeEnd),
        sso_required: values.ssoRequired,
      }),
    onSaved: (saved, savedForm) => {
      queryClient.setQueryData(panelSettingsKeys.all, saved);
      savedForm.reset(toFormValues(saved));
      flashActions().addFlash({ key: flashKey, type: 'success', message: t('settings.saved') });
    },
  });
  const testMail = useMutation({ mutationFn: sendTestMail });

  const handleTestMail = async () => {
    flashActions().clearFlashes(flashKey);
    try {
      await testMail.mutateAsync();
      flashActions().addFlash({
        key: flashKey,
        type: 'success',
        message: t('settings.test_mail_sent', { email }),
      });
    } catch (error) {
      flashActions().clearAndAddHttpError({ key: flashKey, error });
    }
  };

  const recaptchaEnabled = form.watch('recaptchaEnabled');
  const secretSet = settings.recaptchaSecretKeySet;
  return (
    <FormProvider {...form}>
      <form onSubmit={submit} noValidate className="space-y-6">
        {/* settings.read alone shows the settings as they are, nothing to change or send. */}
        <fieldset disabled={!canWrite} className="min-w-0 space-y-6">
          <ContentBox title={t('settings.general')}>
            <div className="grid grid-cols-1 gap-5 md:grid-cols-2">
              <FormField<PanelSettingsFormValues>
                name="appName"
                label={t('settings.app_name')}
                description={t('settings.app_name_hint')}
              />
              <FormSelectField<PanelSettingsFormValues>
                name="defaultLanguage"
                label={t('settings.default_language')}
                description={t('settings.default_language_hint')}
                options={languageOptions}
              />
            </div>
          </ContentBox>

          <ContentBox title={t('settings.security')}>
            <FormSelectField<PanelSettingsFormValues>
              name="twoFactorRequired"
              label={t('settings.two_factor')}
              description={t('settings.two_factor_hint')}
              options={(['0', '1', '2'] as const).map((level) => ({
                value: level,
                label: t(`settings.two_factor_levels.${level}`),
              }))}
            />
            <FormSwitch<SettingsFormValues>
              name="ssoRequired"
              label={t('settings.sso_required')}
              description={t('settings.sso_required_hint')}
              className="mt-5"
            />
          </ContentBox>

          <ContentBox title={t('settings.mail')}>
            <div className="grid grid-cols-1 gap-5 md:grid-cols-2">
              <FormField<PanelSettingsFormValues>
                name="mailUrl"
                label={t('settings.mail_url')}
                description={t('settings.mail_url_hint')}
                autoComplete="off"
                spellCheck={false}
              />
              <FormField<PanelSettingsFormValues>
                name="mailFrom"
                label={t('settings.mail_from')}
                description={t('settings.mail_from_hint')}
              />
            </div>
            <div className="mt-5 flex flex-wrap items-center gap-3">
              <Button
                variant="secondary"
                onClick={() => void handleTestMail()}
                isLoading={testMail.isPending}
              >
                {t('settings.test_mail')}
              </Button>
              <p className="text-xs text-ink-400">{t('settings.test_mail_hint', { email })}</p>
            </div>
          </ContentBox>

          <ContentBox title={t('settings.recaptcha')}>
            <FormSwitch<PanelSettingsFormValues>
              name="recaptchaEnabled"
              label={t('settings.recaptcha_enabled')}
            />
            {recaptchaEnabled && (
              <div className="mt-5 grid gap-5 md:grid-cols-2">
                <FormField<PanelSettingsFormValues>
                  name="recaptchaSiteKey"
                  label={t('settings.site_key')}
                  autoComplete="off"
                  spellCheck={false}
                />
                <FormField<PanelSettingsFormValues>
                  name="recaptchaSecretKey"
                  label={t('settings.secret_key')}
                  description={secretSet ? t('settings.secret_key_set') : t('settings.secret_key_unset')}
                  type="password"
                  autoComplete="new-password"
                />
              </div>
            )}
          </ContentBox>

          <ContentBox title={t('settings.allocations')}>
            <FormSwitch<PanelSettingsFormValues>
              name="allocationsEnabled"
              label={t('settings.allocations_enabled')}
              description={t('settings.allocations_enabled_hint')}
            />
            <div className="mt-5 grid gap-5 md:grid-cols-2">
              <FormField<PanelSettingsFormValues>
                name="allocationsRangeStart"
                label={t('settings.allocations_range_start')}
                inputMode="numeric"
              />
              <FormField<PanelSettingsFormValues>
                name="allocationsRangeEnd"
                label={t('settings.allocations_range_end')}
                inputMode="numeric"
              />
            </div>
            <p className="mt-3 text-xs text-ink-400">{t('settings.allocations_range_hint')}</p>
          </ContentBox>
        </fieldset>

        {canWrite && (
          <div className="flex justify-end">
            <Button type="submit" isLoading={form.formState.isSubmitting}>
              {t('settings.save')}
            </Button>
          </div>
        )}
      </form>
    </FormProvider>
  );
}

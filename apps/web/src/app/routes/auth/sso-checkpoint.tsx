import { useTranslation } from 'react-i18next';
import { SpinnerBlock } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { AuthFormContainer } from '@/features/auth/components/auth-form-container';
import { AuthLink } from '@/features/auth/components/auth-link';
import { CheckpointForm } from '@/features/auth/components/checkpoint-form';
import { useSsoCheckpointToken } from '@/features/oauth/hooks/use-sso-checkpoint-token';

/**
 * The 2FA step after a provider sign-in (`/auth/login/checkpoint?sso=1`): the confirmation token comes from the
 * panel's session instead of the login form, then the usual checkpoint form takes the code.
 */
export function SsoCheckpointRoute() {
  const { t } = useTranslation('auth');
  const checkpoint = useSsoCheckpointToken();
  if (checkpoint.status === 'ready') return <CheckpointForm confirmationToken={checkpoint.token} />;
  return (
    <AuthFormContainer title={t('checkpoint.title')}>
      {checkpoint.status === 'loading' ? (
        <SpinnerBlock />
      ) : (
        <div className="space-y-5 text-center">
          <p className="text-sm leading-relaxed text-ink-300">{t('checkpoint.sso_missing')}</p>
          <AuthLink to={paths.auth.login}>{t('checkpoint.return_to_login')}</AuthLink>
        </div>
      )}
    </AuthFormContainer>
  );
}

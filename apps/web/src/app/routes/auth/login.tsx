import { LoginForm } from '@/features/auth/components/login-form';
import { ProviderSignInButtons } from '@/features/oauth/components/provider-sign-in-buttons';
import { SsoErrorNotice } from '@/features/oauth/components/sso-error-notice';

export function LoginRoute() {
  return <LoginForm notice={<SsoErrorNotice />} providers={<ProviderSignInButtons />} />;
}

import { useParams, useSearchParams } from 'react-router';
import { ResetPasswordForm } from '@/features/auth/components/reset-password-form';

/** /auth/password/reset/:token?email=… — the link from the reset mail. */
export function ResetPasswordRoute() {
  const { token = '' } = useParams();
  const [search] = useSearchParams();
  return <ResetPasswordForm token={token} email={search.get('email') ?? ''} />;
}

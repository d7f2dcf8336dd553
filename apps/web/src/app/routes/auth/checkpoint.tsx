import { Navigate, useLocation, useSearchParams } from 'react-router';
import { SsoCheckpointRoute } from '@/app/routes/auth/sso-checkpoint';
import { paths } from '@/config/paths';
import { CheckpointForm } from '@/features/auth/components/checkpoint-form';
import { intendedAddress } from '@/features/auth/utils/intended-address';

/**
 * Reached from the login form, which passes the confirmation token (and the address the guest was going to) in the
 * router state, or from a provider sign-in (`?sso=1`), whose token the panel's session holds.
 */
export function CheckpointRoute() {
  const [search] = useSearchParams();
  if (search.get('sso') === '1') return <SsoCheckpointRoute />;
  return <PasswordCheckpointRoute />;
}

function PasswordCheckpointRoute() {
  const state: unknown = useLocation().state;
  const { token, intended } =
    typeof state === 'object' && state !== null ? (state as { token?: unknown; intended?: unknown }) : {};
  if (typeof token !== 'string' || token === '') return <Navigate to={paths.auth.login} replace />;
  return <CheckpointForm confirmationToken={token} intended={intendedAddress(intended)} />;
}

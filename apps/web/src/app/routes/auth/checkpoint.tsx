import { Navigate, useLocation } from 'react-router';
import { paths } from '@/config/paths';
import { CheckpointForm } from '@/features/auth/components/checkpoint-form';
import { intendedAddress } from '@/features/auth/utils/intended-address';

/**
 * Reached only from the login form, which passes the confirmation token (and the address the guest was going to)
 * in the router state.
 */
export function CheckpointRoute() {
  const state: unknown = useLocation().state;
  const { token, intended } =
    typeof state === 'object' && state !== null ? (state as { token?: unknown; intended?: unknown }) : {};
  if (typeof token !== 'string' || token === '') return <Navigate to={paths.auth.login} replace />;
  return <CheckpointForm confirmationToken={token} intended={intendedAddress(intended)} />;
}

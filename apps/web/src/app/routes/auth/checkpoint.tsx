import { Navigate, useLocation } from 'react-router';
import { paths } from '@/config/paths';
import { CheckpointForm } from '@/features/auth/components/checkpoint-form';

/** Reached only from the login form, which passes the confirmation token in the router state. */
export function CheckpointRoute() {
  const state: unknown = useLocation().state;
  const token =
    typeof state === 'object' && state !== null ? (state as { token?: unknown }).token : undefined;
  if (typeof token !== 'string' || token === '') return <Navigate to={paths.auth.login} replace />;
  return <CheckpointForm confirmationToken={token} />;
}

import { useEffect, useState } from 'react';
import { getOAuthCheckpointToken } from '@/features/oauth/api/oauth';
import { flashActions } from '@/stores/flash-store';

export type SsoCheckpointState =
  | { status: 'loading' }
  | { status: 'ready'; token: string }
  | { status: 'failed' };

/**
 * The confirmation token of the 2FA step a provider sign-in left pending (`/auth/login/checkpoint?sso=1`), asked
 * for once when the page opens. A refusal (nothing pending, or it expired) is flashed on the page.
 */
export function useSsoCheckpointToken(): SsoCheckpointState {
  const [state, setState] = useState<SsoCheckpointState>({ status: 'loading' });
  useEffect(() => {
    let open = true;
    getOAuthCheckpointToken().then(
      (token) => open && setState({ status: 'ready', token }),
      (error: unknown) => {
        if (!open) return;
        flashActions().clearAndAddHttpError({ error });
        setState({ status: 'failed' });
      },
    );
    return () => {
      open = false;
    };
  }, []);
  return state;
}

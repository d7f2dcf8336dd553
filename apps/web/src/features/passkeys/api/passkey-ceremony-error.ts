import type { TFunction } from 'i18next';
import { isCeremonyAbandoned } from '@/features/passkeys/api/passkeys';
import { flashActions } from '@/stores/flash-store';

/**
 * Shows why a passkey ceremony ended without a result: the browser's refusals (cancelled, timed out, a page not
 * on a host name passkeys can belong to) in the user's words, the panel's answers as its other errors are shown.
 */
export function flashCeremonyError(t: TFunction<'strings'>, error: unknown, key?: string): void {
  const { clearAndAddHttpError, addError, clearFlashes } = flashActions();
  const name = error instanceof Error ? error.name : '';
  const code = (error as { code?: unknown } | null)?.code;
  if (isCeremonyAbandoned(error)) {
    clearFlashes(key);
    addError({ key, message: t('passkeys.cancelled') });
  } else if (name === 'SecurityError' || code === 'ERROR_INVALID_DOMAIN' || code === 'ERROR_INVALID_RP_ID') {
    clearFlashes(key);
    addError({ key, message: t('passkeys.insecure_origin') });
  } else {
    clearAndAddHttpError({ key, error });
  }
}

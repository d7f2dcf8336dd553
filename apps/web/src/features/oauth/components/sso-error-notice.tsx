import type { SsoErrorCode } from '@aerie/shared/oauth/oauth-wire';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { MessageBox } from '@/components/ui/message-box';
import { ssoErrorFrom } from '@/features/oauth/api/oauth';
import { useFlashStore } from '@/stores/flash-store';

/** The sentence for a failed provider sign-in or link, in the page's language. */
export function useSsoErrorText(): (code: SsoErrorCode) => string {
  const { t } = useTranslation('auth');
  return useCallback((code: SsoErrorCode) => t(`sso.errors.${code}`), [t]);
}

/**
 * Why the provider sign-in that brought the browser back to the login page (`?sso_error=<code>`) failed, shown as
 * the error flash. Drawn here rather than through the flash store, which the sign-in layout clears when the page
 * opens; it gives way, as a flash would, to the next message the page shows (a refused password, say).
 */
export function SsoErrorNotice({ className }: { className?: string }) {
  const { t } = useTranslation();
  const text = useSsoErrorText();
  const [search] = useSearchParams();
  const code = ssoErrorFrom(search);
  const [dismissed, setDismissed] = useState(false);
  useEffect(
    () =>
      useFlashStore.subscribe((state, previous) => {
        if (state.items.length > previous.items.length) setDismissed(true);
      }),
    [],
  );

  if (code === null || dismissed) return null;
  return (
    <MessageBox type="error" title={t('flash.error')} className={className}>
      {text(code)}
    </MessageBox>
  );
}

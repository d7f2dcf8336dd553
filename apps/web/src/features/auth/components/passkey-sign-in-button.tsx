import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { KeyIcon } from '@/components/ui/icons';
import type { LoginResult } from '@/features/auth/api/auth';
import { afterSignIn } from '@/features/auth/utils/intended-address';
import { flashCeremonyError } from '@/features/passkeys/api/passkey-ceremony-error';
import { browserSupportsPasskeys } from '@/features/passkeys/api/passkeys';
import { browser } from '@/lib/browser';
import { flashActions } from '@/stores/flash-store';

interface PasskeySignInButtonProps {
  /** The ceremony: a passwordless sign-in, or the 2FA step's. */
  signIn: () => Promise<LoginResult>;
  label: string;
  /** Where the guest was going before the login page (already checked to be a local path). */
  intended: string | null;
}

/** Signs in with a passkey of this device or a nearby one; hidden where the browser has no WebAuthn. */
export function PasskeySignInButton({ signIn, label, intended }: PasskeySignInButtonProps) {
  const { t } = useTranslation('strings');
  const [busy, setBusy] = useState(false);
  if (!browserSupportsPasskeys()) return null;

  const handleClick = async () => {
    flashActions().clearFlashes();
    setBusy(true);
    try {
      const result = await signIn();
      // A full load, so the panel renders the shell with the signed-in user.
      browser.loadPage(afterSignIn(intended, result.intended));
    } catch (error) {
      flashCeremonyError(t, error);
      setBusy(false);
    }
  };

  return (
    <Button
      type="button"
      variant="secondary"
      size="lg"
      className="w-full"
      isLoading={busy}
      onClick={() => void handleClick()}
    >
      <KeyIcon className="mr-2 size-5" />
      {label}
    </Button>
  );
}

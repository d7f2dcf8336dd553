import { useIsMutating } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FlashMessageRender } from '@/components/ui/flash-message-render';
import { Modal } from '@/components/ui/modal';
import { twoFactorKeys } from '@/features/account/api/two-factor';
import { twoFactorFlashKey } from '@/features/account/components/account-flash-keys';
import { RecoveryCodes } from '@/features/account/components/recovery-codes';
import { SetupTwoFactorForm } from '@/features/account/components/setup-two-factor-form';
import { flashActions } from '@/stores/flash-store';
import { useUserStore } from '@/stores/user-store';

interface SetupTwoFactorModalProps {
  visible: boolean;
  /** Asked to close (the recovery codes' Close button) and told once the modal has closed. */
  onClose: () => void;
}

/**
 * Turning two-factor on: setup, then the recovery codes. While the codes show, neither Escape nor the backdrop
 * closes the modal, so nobody loses them by a stray key; the account counts as two-factor once it has closed.
 */
export function SetupTwoFactorModal({ visible, onClose }: SetupTwoFactorModalProps) {
  const { t } = useTranslation('account');
  const updateUser = useUserStore((state) => state.updateUser);
  const [tokens, setTokens] = useState<string[] | null>(null);
  const enabling = useIsMutating({ mutationKey: twoFactorKeys.enable() }) > 0;

  const handleDismissed = () => {
    if (tokens) updateUser({ useTotp: true });
    setTokens(null);
    flashActions().clearFlashes(twoFactorFlashKey);
    onClose();
  };

  return (
    <Modal
      visible={visible}
      onDismissed={handleDismissed}
      title={tokens ? t('two_factor.enabled_title') : t('two_factor.setup_title')}
      dismissable={tokens === null}
      showSpinnerOverlay={enabling}
    >
      <FlashMessageRender byKey={twoFactorFlashKey} className="mb-4" />
      {tokens ? (
        <RecoveryCodes tokens={tokens} onClose={onClose} />
      ) : (
        <SetupTwoFactorForm onEnabled={setTokens} />
      )}
    </Modal>
  );
}

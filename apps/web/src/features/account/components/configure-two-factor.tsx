import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { DisableTwoFactorModal } from '@/features/account/components/disable-two-factor-modal';
import { SetupTwoFactorModal } from '@/features/account/components/setup-two-factor-modal';
import { useUserStore } from '@/stores/user-store';

/** The Configure Two Factor panel: its state in words and the button that opens the matching modal. */
export function ConfigureTwoFactor() {
  const { t } = useTranslation('account');
  const totpEnabled = useUserStore((state) => state.user?.useTotp ?? false);
  const [open, setOpen] = useState<'setup' | 'disable' | null>(null);
  const close = () => setOpen(null);

  return (
    <div>
      <p className="text-sm leading-relaxed text-ink-300">
        {totpEnabled ? t('two_factor.enabled_text') : t('two_factor.disabled_text')}
      </p>
      <div className="mt-6 flex justify-end">
        {totpEnabled ? (
          <Button variant="danger" onClick={() => setOpen('disable')}>
            {t('two_factor.disable')}
          </Button>
        ) : (
          <Button onClick={() => setOpen('setup')}>{t('two_factor.enable')}</Button>
        )}
      </div>
      {/* Both stay mounted, so the one that just flipped the state can still fade out. */}
      <SetupTwoFactorModal visible={open === 'setup'} onClose={close} />
      <DisableTwoFactorModal visible={open === 'disable'} onClose={close} />
    </div>
  );
}

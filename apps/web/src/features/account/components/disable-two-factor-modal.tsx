import {
  type DisableTwoFactorFormValues,
  disableTwoFactorFormSchema,
} from '@aerie/shared/account/account-forms';
import { zodResolver } from '@hookform/resolvers/zod';
import { useIsMutating } from '@tanstack/react-query';
import { FormProvider, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { FormField } from '@/components/ui/field';
import { FlashMessageRender } from '@/components/ui/flash-message-render';
import { Modal } from '@/components/ui/modal';
import { twoFactorKeys, useDisableTwoFactor } from '@/features/account/api/two-factor';
import { twoFactorFlashKey } from '@/features/account/components/account-flash-keys';
import { flashActions } from '@/stores/flash-store';
import { useUserStore } from '@/stores/user-store';

function DisableTwoFactorForm({ onDisabled }: { onDisabled: () => void }) {
  const { t } = useTranslation('account');
  const disable = useDisableTwoFactor();
  const updateUser = useUserStore((state) => state.updateUser);
  const form = useForm<DisableTwoFactorFormValues>({
    resolver: zodResolver(disableTwoFactorFormSchema),
    defaultValues: { password: '' },
    mode: 'onTouched',
  });

  const handleSubmit = form.handleSubmit(async ({ password }) => {
    flashActions().clearFlashes(twoFactorFlashKey);
    try {
      await disable.mutateAsync(password);
      updateUser({ useTotp: false });
      onDisabled();
    } catch (error) {
      flashActions().clearAndAddHttpError({ key: twoFactorFlashKey, error });
    }
  });

  return (
    <FormProvider {...form}>
      <form onSubmit={handleSubmit} noValidate className="space-y-5">
        <p className="text-sm leading-relaxed text-ink-300">{t('two_factor.disable_text')}</p>
        <FormField<DisableTwoFactorFormValues>
          name="password"
          type="password"
          label={t('two_factor.disable_password')}
          autoComplete="current-password"
          autoFocus
        />
        <div className="flex justify-end">
          <Button type="submit" variant="danger" isLoading={form.formState.isSubmitting}>
            {t('two_factor.disable_submit')}
          </Button>
        </div>
      </form>
    </FormProvider>
  );
}

interface DisableTwoFactorModalProps {
  visible: boolean;
  /** Asked to close once two-factor is off, and told when the modal has closed. */
  onClose: () => void;
}

/** Turning two-factor off: only the account password is asked for. */
export function DisableTwoFactorModal({ visible, onClose }: DisableTwoFactorModalProps) {
  const { t } = useTranslation('account');
  const disabling = useIsMutating({ mutationKey: twoFactorKeys.disable() }) > 0;
  const handleDismissed = () => {
    flashActions().clearFlashes(twoFactorFlashKey);
    onClose();
  };
  return (
    <Modal
      visible={visible}
      onDismissed={handleDismissed}
      title={t('two_factor.disable_title')}
      showSpinnerOverlay={disabling}
      size="sm"
    >
      <FlashMessageRender byKey={twoFactorFlashKey} className="mb-4" />
      <DisableTwoFactorForm onDisabled={onClose} />
    </Modal>
  );
}

import { type RenamePasskeyFormValues, renamePasskeyFormSchema } from '@aerie/shared/passkeys/passkeys-forms';
import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect } from 'react';
import { FormProvider, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { FormField } from '@/components/ui/field';
import { Modal } from '@/components/ui/modal';
import { type Passkey, useRenamePasskey } from '@/features/passkeys/api/passkeys';
import { passkeysFlashKey } from '@/features/passkeys/components/passkeys-flash-key';
import { flashActions } from '@/stores/flash-store';

/** Gives a passkey a new name; shown while `passkey` is set. */
export function RenamePasskeyModal({ passkey, onClose }: { passkey: Passkey | null; onClose: () => void }) {
  const { t } = useTranslation('account');
  const rename = useRenamePasskey();
  const form = useForm<RenamePasskeyFormValues>({
    resolver: zodResolver(renamePasskeyFormSchema),
    defaultValues: { name: '' },
    mode: 'onTouched',
  });
  useEffect(() => {
    if (passkey) form.reset({ name: passkey.name });
  }, [passkey, form]);

  const handleSubmit = form.handleSubmit(async ({ name }) => {
    if (!passkey) return;
    flashActions().clearFlashes(passkeysFlashKey);
    try {
      await rename.mutateAsync({ id: passkey.id, name });
    } catch (error) {
      flashActions().clearAndAddHttpError({ key: passkeysFlashKey, error });
    }
    onClose();
  });

  return (
    <Modal
      visible={passkey !== null}
      onDismissed={onClose}
      title={t('passkeys.rename_title')}
      showSpinnerOverlay={rename.isPending}
      size="sm"
    >
      <FormProvider {...form}>
        <form onSubmit={handleSubmit} noValidate className="space-y-5">
          <FormField<RenamePasskeyFormValues>
            name="name"
            label={t('passkeys.name')}
            autoComplete="off"
            autoFocus
          />
          <div className="flex justify-end">
            <Button type="submit" isLoading={form.formState.isSubmitting}>
              {t('passkeys.rename_submit')}
            </Button>
          </div>
        </form>
      </FormProvider>
    </Modal>
  );
}

import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { ConfirmationModal } from '@/components/ui/confirmation-modal';
import { FlashMessageRender } from '@/components/ui/flash-message-render';
import {
  browserSupportsPasskeys,
  type Passkey,
  passkeysQueryOptions,
  useRemovePasskey,
} from '@/features/passkeys/api/passkeys';
import { AddPasskeyForm } from '@/features/passkeys/components/add-passkey-form';
import { PasskeyRow } from '@/features/passkeys/components/passkey-row';
import { passkeysFlashKey } from '@/features/passkeys/components/passkeys-flash-key';
import { RenamePasskeyModal } from '@/features/passkeys/components/rename-passkey-modal';
import { flashActions } from '@/stores/flash-store';

const strong = <strong className="font-medium text-ink-100" />;

/**
 * The account page's passkeys: what signs in without a password (and stands in for the 2FA code), each with
 * rename and remove, and the form that adds one on this device.
 */
export function PasskeysBox() {
  const { t } = useTranslation('account');
  const passkeys = useQuery(passkeysQueryOptions());
  const remove = useRemovePasskey();
  const [renaming, setRenaming] = useState<Passkey | null>(null);
  const [removing, setRemoving] = useState<Passkey | null>(null);
  const [confirming, setConfirming] = useState(false);

  useEffect(() => {
    if (passkeys.error) flashActions().clearAndAddHttpError({ key: passkeysFlashKey, error: passkeys.error });
  }, [passkeys.error]);

  const handleRemove = async () => {
    if (!removing) return;
    flashActions().clearFlashes(passkeysFlashKey);
    try {
      await remove.mutateAsync(removing.id);
    } catch (error) {
      flashActions().clearAndAddHttpError({ key: passkeysFlashKey, error });
    }
    setConfirming(false);
  };

  const list = passkeys.data ?? [];
  return (
    <div className="space-y-5">
      <FlashMessageRender byKey={passkeysFlashKey} />
      <p className="text-sm leading-relaxed text-ink-300">{t('passkeys.intro')}</p>
      {list.length === 0 ? (
        <p className="py-2 text-center text-sm text-ink-400">
          {passkeys.isPending ? t('passkeys.loading') : t('passkeys.empty')}
        </p>
      ) : (
        <ul className="space-y-2" aria-label={t('passkeys.list_label')}>
          {list.map((passkey) => (
            <PasskeyRow
              key={passkey.id}
              passkey={passkey}
              onRename={setRenaming}
              onRemove={(item) => {
                setRemoving(item);
                setConfirming(true);
              }}
            />
          ))}
        </ul>
      )}
      {browserSupportsPasskeys() ? (
        <AddPasskeyForm />
      ) : (
        <p className="text-sm text-ink-400">{t('passkeys.unsupported')}</p>
      )}
      <RenamePasskeyModal passkey={renaming} onClose={() => setRenaming(null)} />
      <ConfirmationModal
        visible={confirming}
        onClose={() => setConfirming(false)}
        title={t('passkeys.remove_title')}
        confirmLabel={t('passkeys.remove_confirm')}
        cancelLabel={t('passkeys.cancel')}
        onConfirm={() => void handleRemove()}
        isLoading={remove.isPending}
      >
        <Trans
          t={t}
          i18nKey="passkeys.remove_text"
          values={{ name: removing?.name ?? '' }}
          components={{ strong }}
        />
      </ConfirmationModal>
    </div>
  );
}

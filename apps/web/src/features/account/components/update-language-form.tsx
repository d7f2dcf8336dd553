import { useTranslation } from 'react-i18next';
import { SelectField } from '@/components/admin/select-field';
import { FlashMessageRender } from '@/components/ui/flash-message-render';
import { useUpdateLanguage } from '@/features/account/api/account';
import { prepareFormatLanguage } from '@/lib/format-language';
import { languageOptions } from '@/lib/language-options';
import { flashActions } from '@/stores/flash-store';
import { useUserStore } from '@/stores/user-store';

const flashKey = 'account:language';

/** The account's language: chosen from the list, saved at once, and the page switches to it without a reload. */
export function UpdateLanguageForm() {
  const { t, i18n } = useTranslation('account');
  const language = useUserStore((state) => state.user?.language ?? i18n.language);
  const update = useUpdateLanguage();
  const choose = async (next: string) => {
    flashActions().clearFlashes(flashKey);
    try {
      await update.mutateAsync({ language: next });
      useUserStore.getState().updateUser({ language: next });
      await prepareFormatLanguage(next);
      await i18n.changeLanguage(next);
    } catch (error) {
      flashActions().clearAndAddHttpError({ key: flashKey, error });
    }
  };
  return (
    <>
      <FlashMessageRender byKey={flashKey} className="mb-4" />
      <SelectField
        label={t('language.label')}
        description={t('language.description')}
        options={languageOptions}
        value={language}
        disabled={update.isPending}
        onChange={(event) => void choose(event.target.value)}
      />
    </>
  );
}

import { useTranslation } from 'react-i18next';
import { SecretModal } from '@/components/ui/secret-modal';

interface ApiKeyModalProps {
  /** The full key (identifier + secret) of a key just created; null while there is none to show. */
  apiKey: string | null;
  /** Called once the modal has faded out. */
  onDismissed: () => void;
}

/** Shows a new account key the one time the panel returns its secret (spec's texts). */
export function ApiKeyModal({ apiKey, onDismissed }: ApiKeyModalProps) {
  const { t } = useTranslation(['account', 'strings']);
  return (
    <SecretModal
      secret={apiKey}
      title={t('api_keys.created_title')}
      text={t('api_keys.created_text')}
      closeLabel={t('strings:actions.close')}
      onDismissed={onDismissed}
    />
  );
}

import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { CopyOnClick } from '@/components/ui/copy-on-click';
import { Modal } from '@/components/ui/modal';

interface ApiKeyModalProps {
  /** The full key (identifier + secret) of a key just created; null while there is none to show. */
  apiKey: string | null;
  /** Called once the modal has faded out. */
  onDismissed: () => void;
}

/**
 * Shows a new key the one time the panel returns its secret. Only the Close button ends it (no Escape, no
 * backdrop), so the key is not lost to a stray key press before it was copied.
 */
export function ApiKeyModal({ apiKey, onDismissed }: ApiKeyModalProps) {
  const { t } = useTranslation(['account', 'strings']);
  const [visible, setVisible] = useState(false);

  useEffect(() => {
    if (apiKey) setVisible(true);
  }, [apiKey]);

  return (
    <Modal
      visible={visible}
      onDismissed={onDismissed}
      title={t('api_keys.created_title')}
      dismissable={false}
    >
      <p className="text-sm leading-relaxed text-ink-300">{t('api_keys.created_text')}</p>
      {apiKey && (
        <div className="mt-4 rounded-lg border border-ink-700 bg-ink-900 px-4 py-3">
          <CopyOnClick text={apiKey} className="font-mono text-sm text-ink-100">
            <code>{apiKey}</code>
          </CopyOnClick>
        </div>
      )}
      <div className="mt-6 flex justify-end">
        <Button onClick={() => setVisible(false)}>{t('strings:actions.close')}</Button>
      </div>
    </Modal>
  );
}

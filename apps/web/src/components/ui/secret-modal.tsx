import { useEffect, useState } from 'react';
import { Button } from '@/components/ui/button';
import { CopyOnClick } from '@/components/ui/copy-on-click';
import { Modal } from '@/components/ui/modal';

interface SecretModalProps {
  /** What to show once (an API key with its secret); null while there is none. */
  secret: string | null;
  title: string;
  text: string;
  closeLabel: string;
  /** Called once the modal has faded out. */
  onDismissed: () => void;
}

/**
 * Shows a secret the one time the panel returns it, with copy on click. Only the Close button ends it (no Escape,
 * no backdrop), so it is not lost to a stray key press before it was copied.
 */
export function SecretModal({ secret, title, text, closeLabel, onDismissed }: SecretModalProps) {
  const [visible, setVisible] = useState(false);

  useEffect(() => {
    if (secret) setVisible(true);
  }, [secret]);

  return (
    <Modal visible={visible} onDismissed={onDismissed} title={title} dismissable={false}>
      <p className="text-sm leading-relaxed text-ink-300">{text}</p>
      {secret && (
        <div className="mt-4 rounded-lg border border-ink-700 bg-ink-900 px-4 py-3">
          <CopyOnClick text={secret} className="font-mono text-sm break-all text-ink-100">
            <code>{secret}</code>
          </CopyOnClick>
        </div>
      )}
      <div className="mt-6 flex justify-end">
        <Button onClick={() => setVisible(false)}>{closeLabel}</Button>
      </div>
    </Modal>
  );
}

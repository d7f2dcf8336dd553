import clsx from 'clsx';
import { useTranslation } from 'react-i18next';
import { MessageBox } from '@/components/ui/message-box';
import { useTranslatedMessage } from '@/lib/use-translated-message';
import { useFlashStore } from '@/stores/flash-store';

interface FlashMessageRenderProps {
  /** Shows only the flashes added under this key; without it, every flash shows. */
  byKey?: string;
  className?: string;
}

export function FlashMessageRender({ byKey, className }: FlashMessageRenderProps) {
  const { t } = useTranslation();
  const items = useFlashStore((state) => state.items);
  const shown = byKey === undefined ? items : items.filter((flash) => flash.key === byKey);
  if (shown.length === 0) return null;
  return (
    <div className={clsx('space-y-2', className)}>
      {shown.map((flash) => (
        <MessageBox
          key={flash.id}
          type={flash.type}
          title={flash.title ?? (flash.type === 'error' ? t('flash.error') : undefined)}
        >
          <FlashText message={flash.message} />
        </MessageBox>
      ))}
    </div>
  );
}

/** A flash's text in the page's language when it is one of the shared messages (an API answer, a form's check). */
function FlashText({ message }: { message: string }) {
  return <>{useTranslatedMessage(message)}</>;
}

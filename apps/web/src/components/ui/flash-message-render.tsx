import clsx from 'clsx';
import { MessageBox } from '@/components/ui/message-box';
import { useFlashStore } from '@/stores/flash-store';

interface FlashMessageRenderProps {
  /** Shows only the flashes added under this key; without it, every flash shows. */
  byKey?: string;
  className?: string;
}

export function FlashMessageRender({ byKey, className }: FlashMessageRenderProps) {
  const items = useFlashStore((state) => state.items);
  const shown = byKey === undefined ? items : items.filter((flash) => flash.key === byKey);
  if (shown.length === 0) return null;
  return (
    <div className={clsx('space-y-2', className)}>
      {shown.map((flash) => (
        <MessageBox key={flash.id} type={flash.type} title={flash.title}>
          {flash.message}
        </MessageBox>
      ))}
    </div>
  );
}

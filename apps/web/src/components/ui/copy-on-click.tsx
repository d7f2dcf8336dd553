import { limits } from '@aerie/shared/limits';
import clsx from 'clsx';
import { type ReactNode, useEffect, useState } from 'react';
import { createPortal } from 'react-dom';
import { useTranslation } from 'react-i18next';
import { CopyIcon } from '@/components/ui/icons';

/** The Clipboard API needs a secure context; the old command covers a panel reached over plain HTTP. */
async function writeToClipboard(text: string): Promise<void> {
  if (navigator.clipboard?.writeText) {
    await navigator.clipboard.writeText(text);
    return;
  }
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.style.position = 'fixed';
  area.style.opacity = '0';
  document.body.append(area);
  area.select();
  try {
    if (!document.execCommand('copy')) throw new Error('The browser refused to copy.');
  } finally {
    area.remove();
  }
}

interface CopyOnClickProps {
  /** What lands in the clipboard (and in the toast). */
  text: string;
  children: ReactNode;
  className?: string;
}

/**
 * Makes its content a button that copies `text`, then shows 'Copied "…" to clipboard.' for 2.5 s. A second
 * copy while the toast shows starts the 2.5 s over.
 */
export function CopyOnClick({ text, children, className }: CopyOnClickProps) {
  const { t } = useTranslation();
  const [copiedAt, setCopiedAt] = useState<number | null>(null);

  useEffect(() => {
    if (copiedAt === null) return;
    const timer = setTimeout(() => setCopiedAt(null), limits.copyToastMs);
    return () => clearTimeout(timer);
  }, [copiedAt]);

  const handleCopy = async () => {
    try {
      await writeToClipboard(text);
      setCopiedAt(Date.now());
    } catch (error) {
      // Nothing was copied, so no toast; the value stays on screen to copy by hand.
      console.error('Could not copy to the clipboard.', error);
    }
  };

  return (
    <>
      <button
        type="button"
        title={t('copy.hint')}
        onClick={() => void handleCopy()}
        className={clsx(
          'group inline-flex max-w-full cursor-pointer items-center gap-2 rounded-md text-start transition-colors hover:text-white',
          className,
        )}
      >
        <span className="min-w-0 break-all">{children}</span>
        <CopyIcon className="size-4 shrink-0 text-ink-400 group-hover:text-brand-300" />
      </button>
      {copiedAt !== null &&
        createPortal(
          <div
            role="status"
            className="fixed inset-x-0 bottom-6 z-[70] flex justify-center px-4 pointer-events-none animate-fade-in"
          >
            <p className="max-w-lg break-all rounded-lg border border-ink-700 bg-ink-800 px-4 py-2 text-sm text-ink-50 shadow-xl shadow-black/40">
              {t('copy.copied', { text })}
            </p>
          </div>,
          document.body,
        )}
    </>
  );
}

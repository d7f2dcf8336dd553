import clsx from 'clsx';
import type { ReactNode } from 'react';
import { AlertIcon, CheckCircleIcon, ErrorCircleIcon, InfoIcon } from '@/components/ui/icons';
import type { FlashType } from '@/stores/flash-store';

const styles: Record<FlashType, { box: string; icon: string; Icon: typeof InfoIcon }> = {
  error: { box: 'border-red-500/40 bg-red-500/10 text-red-100', icon: 'text-red-400', Icon: ErrorCircleIcon },
  info: { box: 'border-sky-500/40 bg-sky-500/10 text-sky-100', icon: 'text-sky-400', Icon: InfoIcon },
  success: {
    box: 'border-emerald-500/40 bg-emerald-500/10 text-emerald-100',
    icon: 'text-emerald-400',
    Icon: CheckCircleIcon,
  },
  warning: {
    box: 'border-amber-500/40 bg-amber-500/10 text-amber-100',
    icon: 'text-amber-400',
    Icon: AlertIcon,
  },
};

interface MessageBoxProps {
  type?: FlashType;
  title?: string;
  children: ReactNode;
  className?: string;
}

/** A coloured notice, announced to assistive technology as an alert. */
export function MessageBox({ type = 'info', title, children, className }: MessageBoxProps) {
  const { box, icon, Icon } = styles[type];
  return (
    <div
      role="alert"
      data-type={type}
      className={clsx(
        'flex items-start gap-3 rounded-lg border px-4 py-3 text-sm animate-fade-in',
        box,
        className,
      )}
    >
      <Icon className={clsx('mt-0.5 size-4 shrink-0', icon)} />
      <div className="min-w-0 leading-relaxed">
        {title && <strong className="me-2 font-semibold text-white">{title}</strong>}
        <span className="break-words">{children}</span>
      </div>
    </div>
  );
}

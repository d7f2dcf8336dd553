import clsx from 'clsx';
import type { Ref, TextareaHTMLAttributes } from 'react';

export interface TextareaProps extends TextareaHTMLAttributes<HTMLTextAreaElement> {
  hasError?: boolean;
  ref?: Ref<HTMLTextAreaElement>;
}

/** The multi-line sibling of `Input`, styled the same. */
export function Textarea({ hasError, className, rows = 4, ...props }: TextareaProps) {
  return (
    <textarea
      rows={rows}
      className={clsx(
        'block w-full resize-y rounded-lg border bg-ink-900 px-3.5 py-2.5 text-sm text-ink-50 placeholder:text-ink-500',
        'transition-colors duration-150 focus:outline-none focus:ring-2',
        'disabled:cursor-not-allowed disabled:bg-ink-850 disabled:text-ink-400',
        hasError
          ? 'border-red-500/80 focus:border-red-400 focus:ring-red-500/30'
          : 'border-ink-700 hover:border-ink-600 focus:border-brand-500 focus:ring-brand-500/30',
        className,
      )}
      {...props}
    />
  );
}

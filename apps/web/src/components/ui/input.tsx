import clsx from 'clsx';
import type { InputHTMLAttributes, LabelHTMLAttributes, Ref } from 'react';

export function Label({ className, ...props }: LabelHTMLAttributes<HTMLLabelElement>) {
  return (
    // biome-ignore lint/a11y/noLabelWithoutControl: callers always pass htmlFor.
    <label
      className={clsx('mb-1.5 block text-xs font-semibold uppercase tracking-wider text-ink-300', className)}
      {...props}
    />
  );
}

export interface InputProps extends InputHTMLAttributes<HTMLInputElement> {
  hasError?: boolean;
  ref?: Ref<HTMLInputElement>;
}

export function Input({ hasError, className, type = 'text', ...props }: InputProps) {
  return (
    <input
      type={type}
      className={clsx(
        'block h-11 w-full rounded-lg border bg-ink-900 px-3.5 text-sm text-ink-50 placeholder:text-ink-500',
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

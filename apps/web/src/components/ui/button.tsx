import clsx from 'clsx';
import type { ButtonHTMLAttributes, ReactNode } from 'react';
import { Spinner } from '@/components/ui/spinner';

export type ButtonVariant = 'primary' | 'secondary' | 'danger' | 'ghost';
export type ButtonSize = 'sm' | 'md' | 'lg';

const variants: Record<ButtonVariant, string> = {
  primary:
    'bg-brand-600 text-white shadow-sm shadow-brand-900/40 hover:bg-brand-700 active:bg-brand-800 disabled:bg-brand-700/60 aria-disabled:bg-brand-700/60',
  secondary:
    'bg-ink-700 text-ink-50 hover:bg-ink-600 active:bg-ink-800 disabled:bg-ink-800 aria-disabled:bg-ink-800',
  danger:
    'bg-red-600 text-white hover:bg-red-500 active:bg-red-700 disabled:bg-red-800/60 aria-disabled:bg-red-800/60',
  ghost:
    'bg-transparent text-ink-200 hover:bg-ink-800 hover:text-ink-50 disabled:text-ink-500 aria-disabled:text-ink-500',
};

const sizes: Record<ButtonSize, string> = {
  sm: 'h-8 px-3 text-xs',
  md: 'h-10 px-4 text-sm',
  lg: 'h-12 px-6 text-base',
};

export const buttonClasses = (
  variant: ButtonVariant = 'primary',
  size: ButtonSize = 'md',
  className?: string,
) =>
  clsx(
    'relative inline-flex items-center justify-center gap-2 rounded-lg font-semibold tracking-wide',
    'transition-colors duration-150 disabled:cursor-not-allowed aria-disabled:cursor-not-allowed',
    variants[variant],
    sizes[size],
    className,
  );

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: ButtonVariant;
  size?: ButtonSize;
  /** Shows a spinner in place of the label and blocks further clicks. */
  isLoading?: boolean;
  /**
   * While disabled, stay focusable (`aria-disabled`, presses ignored) instead of `disabled`: for a button that
   * disables itself when pressed, so keyboard focus is not dropped to the page.
   */
  focusableWhenDisabled?: boolean;
  children?: ReactNode;
}

export function Button({
  variant = 'primary',
  size = 'md',
  isLoading = false,
  focusableWhenDisabled = false,
  disabled,
  className,
  children,
  type = 'button',
  onClick,
  ...props
}: ButtonProps) {
  const inactive = Boolean(disabled || isLoading);
  const soft = focusableWhenDisabled && inactive;
  return (
    <button
      type={soft ? 'button' : type}
      disabled={inactive && !soft}
      aria-disabled={soft || undefined}
      aria-busy={isLoading || undefined}
      className={buttonClasses(variant, size, className)}
      onClick={soft ? (event) => event.preventDefault() : onClick}
      {...props}
    >
      {isLoading && (
        <span className="absolute inset-0 flex items-center justify-center">
          <Spinner size="small" />
        </span>
      )}
      {/* The label stays in the accessibility tree while hidden, so the button keeps its name. */}
      <span className={clsx('inline-flex items-center gap-2', isLoading && 'text-transparent')}>
        {children}
      </span>
    </button>
  );
}

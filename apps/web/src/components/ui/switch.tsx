import clsx from 'clsx';
import { useId } from 'react';

interface SwitchProps {
  checked: boolean;
  onChange: (checked: boolean) => void;
  label: string;
  className?: string;
}

/** An on/off toggle with its label beside it; announced as a switch. */
export function Switch({ checked, onChange, label, className }: SwitchProps) {
  const id = useId();
  return (
    <div className={clsx('inline-flex items-center gap-3', className)}>
      <button
        id={id}
        type="button"
        role="switch"
        aria-checked={checked}
        onClick={() => onChange(!checked)}
        className={clsx(
          'relative inline-flex h-6 w-11 shrink-0 items-center rounded-full transition-colors duration-150',
          'focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-500/50',
          checked ? 'bg-brand-600' : 'bg-ink-700',
        )}
      >
        <span
          aria-hidden="true"
          className={clsx(
            'inline-block size-4 rounded-full bg-white shadow transition-transform duration-150',
            // The knob moves toward the line's end: rightwards, or leftwards in a right-to-left language.
            checked ? 'translate-x-6 rtl:-translate-x-6' : 'translate-x-1 rtl:-translate-x-1',
          )}
        />
      </button>
      <label htmlFor={id} className="cursor-pointer select-none text-sm text-ink-300">
        {label}
      </label>
    </div>
  );
}

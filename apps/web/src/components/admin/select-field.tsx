import clsx from 'clsx';
import { type ReactNode, type Ref, type SelectHTMLAttributes, useId } from 'react';
import { Label } from '@/components/ui/input';
import { useTranslatedMessage } from '@/lib/use-translated-message';
import { capitalize } from '@/utils/capitalize';

export interface SelectOption {
  value: string;
  label: string;
  /** The language the label is written in, when not the page's (a language picker's own names). */
  lang?: string;
}

export interface SelectFieldProps extends Omit<SelectHTMLAttributes<HTMLSelectElement>, 'id'> {
  label: string;
  options: readonly SelectOption[];
  /** Hint under the field; replaced by the error text while the field is invalid. */
  description?: ReactNode;
  error?: string;
  /** A first, empty choice ("Choose a location…"). */
  placeholder?: string;
  ref?: Ref<HTMLSelectElement>;
}

/** A labelled drop-down with its hint or error, styled as the kit's Input. */
export function SelectField({
  label,
  options,
  description,
  error,
  placeholder,
  className,
  ...props
}: SelectFieldProps) {
  const id = useId();
  const helpId = `${id}-help`;
  const shownError = useTranslatedMessage(error);
  const help = shownError ? capitalize(shownError) : description;
  return (
    <div>
      <Label htmlFor={id}>{label}</Label>
      <select
        id={id}
        aria-invalid={error ? true : undefined}
        aria-describedby={help ? helpId : undefined}
        className={clsx(
          'block h-11 w-full rounded-lg border bg-ink-900 px-3 text-sm text-ink-50',
          'transition-colors duration-150 focus:outline-none focus:ring-2',
          error
            ? 'border-red-500/80 focus:border-red-400 focus:ring-red-500/30'
            : 'border-ink-700 hover:border-ink-600 focus:border-brand-500 focus:ring-brand-500/30',
          className,
        )}
        {...props}
      >
        {placeholder !== undefined && <option value="">{placeholder}</option>}
        {options.map((option) => (
          <option key={option.value} value={option.value} lang={option.lang}>
            {option.label}
          </option>
        ))}
      </select>
      {help && (
        <p id={helpId} className={error ? 'mt-1.5 text-xs text-red-400' : 'mt-1.5 text-xs text-ink-400'}>
          {help}
        </p>
      )}
    </div>
  );
}

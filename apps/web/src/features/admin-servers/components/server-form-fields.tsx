import clsx from 'clsx';
import type { ReactNode } from 'react';
import type { FieldValues, Path, UseFormRegister } from 'react-hook-form';
import { Input, Label } from '@/components/ui/input';

/** A labelled input bound to a react-hook-form field, with its hint or error below (admin forms). */
export function TextField<V extends FieldValues>({
  register,
  name,
  label,
  hint,
  error,
  type = 'text',
  className,
}: {
  register: UseFormRegister<V>;
  name: Path<V>;
  label: string;
  hint?: ReactNode;
  error?: string;
  type?: string;
  className?: string;
}) {
  const id = `field-${name}`;
  return (
    <div className={className}>
      <Label htmlFor={id}>{label}</Label>
      <Input
        id={id}
        type={type}
        hasError={Boolean(error)}
        aria-invalid={error ? true : undefined}
        aria-describedby={error || hint ? `${id}-help` : undefined}
        {...register(name)}
      />
      {(error || hint) && (
        <p id={`${id}-help`} className={clsx('mt-1.5 text-xs', error ? 'text-red-400' : 'text-ink-400')}>
          {error ?? hint}
        </p>
      )}
    </div>
  );
}

/** A titled group of fields in a form. */
export function FormSection({ title, children }: { title: string; children: ReactNode }) {
  return (
    <fieldset className="rounded-xl border border-ink-800 bg-ink-900/70 p-5">
      <legend className="px-2 text-sm font-semibold uppercase tracking-wider text-ink-300">{title}</legend>
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">{children}</div>
    </fieldset>
  );
}

import { type ReactNode, useId } from 'react';
import { type FieldValues, type Path, useFormContext } from 'react-hook-form';
import { Input, type InputProps, Label } from '@/components/ui/input';
import { capitalize } from '@/utils/capitalize';

export interface FieldProps extends Omit<InputProps, 'id' | 'hasError'> {
  label: string;
  /** Hint under the field; replaced by the error text while the field is invalid. */
  description?: ReactNode;
  error?: string;
}

/** A labelled input with its hint or error, wired for assistive technology. */
export function Field({ label, description, error, ...props }: FieldProps) {
  const id = useId();
  const helpId = `${id}-help`;
  const help = error ? capitalize(error) : description;
  return (
    <div>
      <Label htmlFor={id}>{label}</Label>
      <Input
        id={id}
        hasError={Boolean(error)}
        aria-invalid={error ? true : undefined}
        aria-describedby={help ? helpId : undefined}
        {...props}
      />
      {help && (
        <p id={helpId} className={error ? 'mt-1.5 text-xs text-red-400' : 'mt-1.5 text-xs text-ink-400'}>
          {help}
        </p>
      )}
    </div>
  );
}

export interface FormFieldProps<T extends FieldValues> extends Omit<FieldProps, 'name' | 'error'> {
  name: Path<T>;
}

/**
 * A Field bound to the surrounding react-hook-form form. Its error shows only once the field was touched or
 * the form was submitted (spec "Shared behaviour").
 */
export function FormField<T extends FieldValues>({ name, ...props }: FormFieldProps<T>) {
  const { register, getFieldState, formState } = useFormContext<T>();
  const { error, isTouched } = getFieldState(name, formState);
  const visible = isTouched || formState.isSubmitted ? error?.message : undefined;
  return <Field {...props} {...register(name)} error={visible} />;
}

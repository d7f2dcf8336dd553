import { type ReactNode, useId } from 'react';
import { type FieldValues, type Path, useFormContext } from 'react-hook-form';
import { Input, type InputProps, Label } from '@/components/ui/input';
import { Textarea, type TextareaProps } from '@/components/ui/textarea';
import { useTranslatedMessage } from '@/lib/use-translated-message';
import { capitalize } from '@/utils/capitalize';

interface FieldChrome {
  label: string;
  /** Hint under the field; replaced by the error text while the field is invalid. */
  description?: ReactNode;
  error?: string;
}

interface ControlWiring {
  id: string;
  hasError: boolean;
  'aria-invalid'?: true;
  'aria-describedby'?: string;
}

/** Label, control and hint-or-error, wired for assistive technology; the control comes from the caller. */
function FieldFrame({
  label,
  description,
  error,
  control,
}: FieldChrome & { control: (wiring: ControlWiring) => ReactNode }) {
  const id = useId();
  const helpId = `${id}-help`;
  const shownError = useTranslatedMessage(error);
  const help = shownError ? capitalize(shownError) : description;
  return (
    <div>
      <Label htmlFor={id}>{label}</Label>
      {control({
        id,
        hasError: Boolean(error),
        'aria-invalid': error ? true : undefined,
        'aria-describedby': help ? helpId : undefined,
      })}
      {help && (
        <p id={helpId} className={error ? 'mt-1.5 text-xs text-red-400' : 'mt-1.5 text-xs text-ink-400'}>
          {help}
        </p>
      )}
    </div>
  );
}

export interface FieldProps extends Omit<InputProps, 'id' | 'hasError'>, FieldChrome {}

/** A labelled input with its hint or error. */
export function Field({ label, description, error, ...props }: FieldProps) {
  return (
    <FieldFrame
      label={label}
      description={description}
      error={error}
      control={(wiring) => <Input {...wiring} {...props} />}
    />
  );
}

export interface TextareaFieldProps extends Omit<TextareaProps, 'id' | 'hasError'>, FieldChrome {}

/** A labelled textarea with its hint or error. */
export function TextareaField({ label, description, error, ...props }: TextareaFieldProps) {
  return (
    <FieldFrame
      label={label}
      description={description}
      error={error}
      control={(wiring) => <Textarea {...wiring} {...props} />}
    />
  );
}

/** The error of a bound field, shown only once it was touched or the form was submitted (spec "Shared behaviour"). */
function useVisibleError<T extends FieldValues>(name: Path<T>) {
  const { register, getFieldState, formState } = useFormContext<T>();
  const { error, isTouched } = getFieldState(name, formState);
  return {
    registered: register(name),
    error: isTouched || formState.isSubmitted ? error?.message : undefined,
  };
}

export interface FormFieldProps<T extends FieldValues> extends Omit<FieldProps, 'name' | 'error'> {
  name: Path<T>;
}

/** A Field bound to the surrounding react-hook-form form. */
export function FormField<T extends FieldValues>({ name, ...props }: FormFieldProps<T>) {
  const { registered, error } = useVisibleError<T>(name);
  return <Field {...props} {...registered} error={error} />;
}

export interface FormTextareaFieldProps<T extends FieldValues>
  extends Omit<TextareaFieldProps, 'name' | 'error'> {
  name: Path<T>;
}

/** A TextareaField bound to the surrounding react-hook-form form. */
export function FormTextareaField<T extends FieldValues>({ name, ...props }: FormTextareaFieldProps<T>) {
  const { registered, error } = useVisibleError<T>(name);
  return <TextareaField {...props} {...registered} error={error} />;
}

import { type FieldValues, type Path, useFormContext } from 'react-hook-form';
import { SelectField, type SelectFieldProps } from '@/components/admin/select-field';

// Apart from SelectField, so a page with a plain drop-down (the console's Java version modal) loads no form library.
export interface FormSelectFieldProps<T extends FieldValues>
  extends Omit<SelectFieldProps, 'name' | 'error'> {
  name: Path<T>;
}

/** A SelectField bound to the surrounding react-hook-form form; its error shows once touched or submitted. */
export function FormSelectField<T extends FieldValues>({ name, ...props }: FormSelectFieldProps<T>) {
  const { register, getFieldState, formState } = useFormContext<T>();
  const { error, isTouched } = getFieldState(name, formState);
  return (
    <SelectField
      {...props}
      {...register(name)}
      error={isTouched || formState.isSubmitted ? error?.message : undefined}
    />
  );
}

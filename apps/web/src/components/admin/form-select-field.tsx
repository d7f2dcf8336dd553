import { type FieldValues, type Path, useFormContext, useWatch } from 'react-hook-form';
import { SelectField, type SelectFieldProps } from '@/components/admin/select-field';

// Apart from SelectField, so a page with a plain drop-down (the console's Java version modal) loads no form library.
export interface FormSelectFieldProps<T extends FieldValues>
  extends Omit<SelectFieldProps, 'name' | 'error'> {
  name: Path<T>;
}

/**
 * A SelectField bound to the surrounding react-hook-form form; its error shows once touched or submitted. Its value
 * is held by React (not only set once on the element), so options that arrive later (locations, nodes, eggs from
 * a query) show the form's choice instead of the first, empty one.
 */
export function FormSelectField<T extends FieldValues>({ name, ...props }: FormSelectFieldProps<T>) {
  const { register, getFieldState, formState, control } = useFormContext<T>();
  const { error, isTouched } = getFieldState(name, formState);
  const value = useWatch({ control, name });
  return (
    <SelectField
      {...props}
      {...register(name)}
      value={value === undefined || value === null ? '' : String(value)}
      error={isTouched || formState.isSubmitted ? error?.message : undefined}
    />
  );
}

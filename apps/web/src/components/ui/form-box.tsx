import type { FormEventHandler, ReactNode } from 'react';
import { type FieldValues, FormProvider, type UseFormReturn } from 'react-hook-form';
import { Button } from '@/components/ui/button';
import { ContentBox } from '@/components/ui/content-box';

interface FormBoxProps<TValues extends FieldValues> {
  title: ReactNode;
  form: UseFormReturn<TValues>;
  onSubmit: FormEventHandler<HTMLFormElement>;
  submitLabel: ReactNode;
  isSaving: boolean;
  /** The form's accessible name, when the page holds several forms. */
  label?: string;
  /** Spacing between the fields and the button. */
  className?: string;
  /** Shows the fields disabled and no button: a viewer who may read but not change (an admin role). */
  readOnly?: boolean;
  children: ReactNode;
}

/** A form in a titled box (the admin area's settings sections): its fields, then the submit button on the right. */
export function FormBox<TValues extends FieldValues>({
  title,
  form,
  onSubmit,
  submitLabel,
  isSaving,
  label,
  className = 'space-y-5',
  readOnly = false,
  children,
}: FormBoxProps<TValues>) {
  return (
    <ContentBox title={title}>
      <FormProvider {...form}>
        <form onSubmit={onSubmit} noValidate className={className} aria-label={label}>
          <fieldset disabled={readOnly} className={`min-w-0 ${className}`}>
            {children}
          </fieldset>
          {!readOnly && (
            <div className="flex justify-end">
              <Button type="submit" isLoading={isSaving}>
                {submitLabel}
              </Button>
            </div>
          )}
        </form>
      </FormProvider>
    </ContentBox>
  );
}

import { zodResolver } from '@hookform/resolvers/zod';
import {
  type DefaultValues,
  type FieldValues,
  type Path,
  type UseFormReturn,
  useForm,
} from 'react-hook-form';
import type { z } from 'zod';
import { showSaveError } from '@/lib/api-field-errors';
import { flashActions } from '@/stores/flash-store';

interface SaveFormOptions<TValues extends FieldValues, TSaved> {
  schema: z.ZodType<TValues, TValues>;
  defaultValues: DefaultValues<TValues>;
  /** Where a failure that is not about one field shows (and is cleared before each try). */
  flashKey: string;
  /** API field name → form field, so a 422 lands under the field it is about. */
  apiFields: Readonly<Record<string, Path<TValues>>>;
  save: (values: TValues) => Promise<TSaved>;
  onSaved?: (saved: TSaved, form: UseFormReturn<TValues>) => void | Promise<void>;
}

/**
 * A form that saves through the API the way every admin form (and a few of the server area's) does: zod rules
 * checked on touch, the flash cleared before each try, a 422's messages under their fields and anything else as a
 * flash. @returns the form and its submit handler
 */
export function useSaveForm<TValues extends FieldValues, TSaved>({
  schema,
  defaultValues,
  flashKey,
  apiFields,
  save,
  onSaved,
}: SaveFormOptions<TValues, TSaved>) {
  const form = useForm<TValues>({ resolver: zodResolver(schema), defaultValues, mode: 'onTouched' });
  const submit = form.handleSubmit(async (values) => {
    flashActions().clearFlashes(flashKey);
    try {
      const saved = await save(values);
      await onSaved?.(saved, form);
    } catch (error) {
      showSaveError(error, form.setError, apiFields, flashKey);
    }
  });
  return { form, submit };
}

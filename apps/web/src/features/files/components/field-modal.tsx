import { toNestErrors } from '@hookform/resolvers';
import type { ReactNode } from 'react';
import { FormProvider, type Resolver, useForm } from 'react-hook-form';
import { Button } from '@/components/ui/button';
import { FormField } from '@/components/ui/field';
import { FlashMessageRender } from '@/components/ui/flash-message-render';
import { Modal } from '@/components/ui/modal';
import { joinPath } from '@/features/files/utils/paths';

export interface FieldModalProps {
  visible: boolean;
  onDismissed: () => void;
  title: string;
  label: string;
  description?: string;
  /** Shown when the value is blank or fails `isValid`. */
  invalidMessage: string;
  isValid?: (value: string) => boolean;
  initialValue?: string;
  submitLabel: string;
  cancelLabel: string;
  /** A line under the field built from the typed value, e.g. where a new directory will be created. */
  preview?: (value: string) => ReactNode;
  /** Flashes of a failed submit show inside the modal under this key. */
  flashKey?: string;
  /** Resolves true to close the modal. */
  onSubmit: (value: string) => Promise<boolean>;
}

/** A `preview` that shows where a new entry named by the field lands: "<lead> /home/container/<dir>/<name>". */
export const containerLocationPreview = (lead: string, directory: string) => (name: string) => (
  <>
    {lead} <code className="text-ink-200">/home/container{joinPath(directory, name)}</code>
  </>
);

interface Values {
  value: string;
}

/** One text field in a modal: new directory, new file, rename or move, and chmod all ask for one value. */
export function FieldModal(props: FieldModalProps) {
  // Mounted only while open, so each opening starts from the initial value.
  if (!props.visible) return null;
  return <FieldModalForm {...props} />;
}

function FieldModalForm({
  onDismissed,
  title,
  label,
  description,
  invalidMessage,
  isValid = () => true,
  initialValue = '',
  submitLabel,
  cancelLabel,
  preview,
  flashKey,
  onSubmit,
}: FieldModalProps) {
  // The trimmed value, required and passing `isValid`; one message for either failure. A plain resolver rather than
  // a zod schema, so the file manager loads no zod (~25 kB gzip) for its one-field dialogs.
  const resolver: Resolver<Values> = async ({ value }, _context, options) => {
    const trimmed = value.trim();
    if (trimmed !== '' && isValid(trimmed)) return { values: { value: trimmed }, errors: {} };
    return {
      values: {} as Record<string, never>,
      errors: toNestErrors({ value: { type: 'invalid', message: invalidMessage } }, options),
    };
  };
  const form = useForm<Values>({
    resolver,
    defaultValues: { value: initialValue },
    mode: 'onTouched',
  });
  const value = form.watch('value');
  const handleSubmit = form.handleSubmit(async ({ value: submitted }) => {
    if (await onSubmit(submitted)) onDismissed();
  });

  return (
    <Modal
      visible
      onDismissed={onDismissed}
      title={title}
      showSpinnerOverlay={form.formState.isSubmitting}
      size="sm"
    >
      {flashKey && <FlashMessageRender byKey={flashKey} className="mb-4" />}
      <FormProvider {...form}>
        <form onSubmit={handleSubmit} noValidate className="space-y-4">
          <FormField<Values>
            name="value"
            label={label}
            description={description}
            autoFocus
            autoComplete="off"
            spellCheck={false}
          />
          {preview && <p className="break-all text-xs text-ink-400">{preview(value.trim())}</p>}
          <div className="flex justify-end gap-3">
            <Button variant="secondary" onClick={onDismissed}>
              {cancelLabel}
            </Button>
            <Button type="submit" isLoading={form.formState.isSubmitting}>
              {submitLabel}
            </Button>
          </div>
        </form>
      </FormProvider>
    </Modal>
  );
}

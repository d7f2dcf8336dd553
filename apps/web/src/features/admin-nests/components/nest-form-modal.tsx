import { nestBodySchema } from '@aerie/shared/eggs/egg-bodies';
import { useEffect } from 'react';
import { FormProvider, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { FormField, FormTextareaField } from '@/components/ui/field';
import { FlashMessageRender } from '@/components/ui/flash-message-render';
import { Modal } from '@/components/ui/modal';
import { createNest, type Nest, updateNest, useNestsMutation } from '@/features/admin-nests/api/nests';
import { applyServerErrors, type BodyForm, bodyResolver } from '@/features/admin-nests/utils/body-form';
import { flashActions } from '@/stores/flash-store';

interface NestFormValues {
  name: string;
  description: string;
}

const nestForm: BodyForm<NestFormValues> = {
  toBody: (values) => ({ name: values.name, description: values.description }),
  fieldOf: (field) => (field === 'name' || field === 'description' ? field : undefined),
};

const flashKey = 'admin:nests:form';

/** Creates a nest (`nest` absent) or changes one: name and description. */
export function NestFormModal({
  visible,
  nest,
  onClose,
  onSaved,
}: {
  visible: boolean;
  nest?: Nest;
  onClose: () => void;
  onSaved?: (nest: Nest) => void;
}) {
  const { t } = useTranslation('admin');
  const save = useNestsMutation((values: NestFormValues) =>
    nest ? updateNest(nest.id, nestForm.toBody(values)) : createNest(nestForm.toBody(values)),
  );
  const form = useForm<NestFormValues>({
    resolver: bodyResolver(nestBodySchema, nestForm),
    defaultValues: { name: nest?.name ?? '', description: nest?.description ?? '' },
    mode: 'onTouched',
  });
  const { reset } = form;

  useEffect(() => {
    if (visible) reset({ name: nest?.name ?? '', description: nest?.description ?? '' });
  }, [visible, nest, reset]);

  const handleSubmit = form.handleSubmit(async (values) => {
    flashActions().clearFlashes(flashKey);
    try {
      const saved = await save.mutateAsync([values]);
      onSaved?.(saved);
      onClose();
    } catch (error) {
      if (!applyServerErrors(form, nestForm.fieldOf, error)) {
        flashActions().clearAndAddHttpError({ key: flashKey, error });
      }
    }
  });

  return (
    <Modal
      visible={visible}
      onDismissed={onClose}
      title={nest ? t('nests.edit_title') : t('nests.create_title')}
      showSpinnerOverlay={form.formState.isSubmitting}
    >
      <FlashMessageRender byKey={flashKey} className="mb-4" />
      <FormProvider {...form}>
        <form onSubmit={handleSubmit} noValidate className="space-y-5">
          <FormField<NestFormValues> name="name" label={t('nests.name')} autoComplete="off" />
          <FormTextareaField<NestFormValues>
            name="description"
            label={t('nests.description')}
            description={t('nests.description_hint')}
          />
          <div className="flex justify-end gap-3">
            <Button variant="secondary" onClick={onClose}>
              {t('actions.cancel')}
            </Button>
            <Button type="submit" isLoading={form.formState.isSubmitting}>
              {nest ? t('actions.save') : t('nests.create')}
            </Button>
          </div>
        </form>
      </FormProvider>
    </Modal>
  );
}

import { useEffect } from 'react';
import { FormProvider } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { FormField } from '@/components/ui/field';
import { FlashMessageRender } from '@/components/ui/flash-message-render';
import { Modal } from '@/components/ui/modal';
import {
  type LocationFormValues,
  locationFormFields,
  locationFormSchema,
  locationFormValues,
  toLocationBody,
} from '@/features/admin-locations/api/location-form';
import { type AdminLocation, useSaveLocation } from '@/features/admin-locations/api/locations';
import { useSaveForm } from '@/hooks/use-save-form';
import { flashActions } from '@/stores/flash-store';

const flashKey = 'admin:locations:form';

interface LocationModalProps {
  visible: boolean;
  /** The location being edited; none creates one. */
  location: AdminLocation | null;
  onClose: () => void;
  onSaved: (location: AdminLocation, created: boolean) => void;
}

/** Creates a location or edits one: its short code and its description. */
export function LocationModal({ visible, location, onClose, onSaved }: LocationModalProps) {
  const { t } = useTranslation('admin');
  const save = useSaveLocation();
  const { form, submit: handleSubmit } = useSaveForm({
    schema: locationFormSchema,
    defaultValues: locationFormValues(location ?? undefined),
    flashKey,
    apiFields: locationFormFields,
    save: (values: LocationFormValues) =>
      save.mutateAsync({ id: location?.id, body: toLocationBody(values) }),
    onSaved: (saved) => onSaved(saved, !location),
  });

  useEffect(() => {
    if (visible) form.reset(locationFormValues(location ?? undefined));
  }, [visible, location, form]);

  return (
    <Modal
      visible={visible}
      onDismissed={() => {
        flashActions().clearFlashes(flashKey);
        onClose();
      }}
      title={location ? t('locations.edit_title', { short: location.short }) : t('locations.create_title')}
      showSpinnerOverlay={save.isPending}
    >
      <FormProvider {...form}>
        <form onSubmit={handleSubmit} noValidate className="space-y-4">
          <FlashMessageRender byKey={flashKey} />
          <FormField<LocationFormValues>
            name="short"
            label={t('locations.fields.short')}
            description={t('locations.short_hint')}
          />
          <FormField<LocationFormValues>
            name="long"
            label={t('locations.fields.long')}
            description={t('locations.long_hint')}
          />
          <div className="flex justify-end gap-3 pt-2">
            <Button variant="secondary" onClick={onClose}>
              {t('actions.cancel')}
            </Button>
            <Button type="submit" isLoading={save.isPending}>
              {location ? t('actions.save') : t('locations.create_submit')}
            </Button>
          </div>
        </form>
      </FormProvider>
    </Modal>
  );
}

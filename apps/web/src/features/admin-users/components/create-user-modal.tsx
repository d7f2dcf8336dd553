import { FormProvider } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { Button } from '@/components/ui/button';
import { FlashMessageRender } from '@/components/ui/flash-message-render';
import { Modal } from '@/components/ui/modal';
import {
  emptyUserForm,
  toUserBody,
  type UserFormValues,
  userFormFields,
  userFormSchema,
} from '@/features/admin-users/api/user-form';
import { useCreateUser } from '@/features/admin-users/api/users';
import { userFlashKey } from '@/features/admin-users/components/admin-users-flash-keys';
import { UserFormFields } from '@/features/admin-users/components/user-form-fields';
import { useSaveForm } from '@/hooks/use-save-form';
import { flashActions } from '@/stores/flash-store';

const flashKey = 'admin:users:create';

interface CreateUserModalProps {
  visible: boolean;
  onClose: () => void;
}

/** A new user; once created, their page opens. */
export function CreateUserModal({ visible, onClose }: CreateUserModalProps) {
  const { t } = useTranslation('admin');
  const navigate = useNavigate();
  const create = useCreateUser();
  const { form, submit: handleSubmit } = useSaveForm({
    schema: userFormSchema,
    defaultValues: emptyUserForm,
    flashKey,
    apiFields: userFormFields,
    save: (values: UserFormValues) => create.mutateAsync(toUserBody(values)),
    onSaved: (user) => {
      flashActions().clearFlashes(userFlashKey);
      flashActions().addFlash({ key: userFlashKey, type: 'success', message: t('users.created') });
      navigate(`/admin/users/view/${user.id}`);
    },
  });

  const handleDismissed = () => {
    form.reset(emptyUserForm);
    flashActions().clearFlashes(flashKey);
    onClose();
  };

  return (
    <Modal
      visible={visible}
      onDismissed={handleDismissed}
      title={t('users.create_title')}
      size="lg"
      showSpinnerOverlay={create.isPending}
    >
      <FormProvider {...form}>
        <form onSubmit={handleSubmit} noValidate>
          <FlashMessageRender byKey={flashKey} className="mb-4" />
          <UserFormFields mode="create" />
          <div className="mt-6 flex justify-end gap-3">
            <Button variant="secondary" onClick={onClose}>
              {t('actions.cancel')}
            </Button>
            <Button type="submit" isLoading={create.isPending}>
              {t('users.create_submit')}
            </Button>
          </div>
        </form>
      </FormProvider>
    </Modal>
  );
}

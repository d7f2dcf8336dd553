import {
  accountMessages,
  type UpdateEmailFormValues,
  updateEmailFormSchema,
} from '@aerie/shared/account/account-forms';
import { zodResolver } from '@hookform/resolvers/zod';
import { FormProvider, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { FormField } from '@/components/ui/field';
import { FlashMessageRender } from '@/components/ui/flash-message-render';
import { useUpdateEmail } from '@/features/account/api/account';
import { flashActions } from '@/stores/flash-store';
import { useUserStore } from '@/stores/user-store';

const flashKey = 'account:email';

export function UpdateEmailForm() {
  const { t } = useTranslation('account');
  const email = useUserStore((state) => state.user?.email ?? '');
  const updateUser = useUserStore((state) => state.updateUser);
  const update = useUpdateEmail();
  const form = useForm<UpdateEmailFormValues>({
    resolver: zodResolver(updateEmailFormSchema),
    defaultValues: { email, password: '' },
    mode: 'onTouched',
  });

  const handleSubmit = form.handleSubmit(async (values) => {
    flashActions().clearFlashes(flashKey);
    try {
      await update.mutateAsync(values);
      updateUser({ email: values.email });
      form.reset({ email: values.email, password: '' });
      flashActions().addFlash({ key: flashKey, type: 'success', message: accountMessages.emailUpdated });
    } catch (error) {
      flashActions().clearAndAddHttpError({ key: flashKey, error });
    }
  });

  return (
    <FormProvider {...form}>
      <FlashMessageRender byKey={flashKey} className="mb-4" />
      <form onSubmit={handleSubmit} noValidate className="space-y-5">
        <FormField<UpdateEmailFormValues>
          name="email"
          type="email"
          label={t('email.email')}
          autoComplete="email"
          spellCheck={false}
        />
        <FormField<UpdateEmailFormValues>
          name="password"
          type="password"
          label={t('email.password')}
          autoComplete="current-password"
        />
        <div className="flex justify-end">
          <Button type="submit" isLoading={form.formState.isSubmitting}>
            {t('email.submit')}
          </Button>
        </div>
      </form>
    </FormProvider>
  );
}

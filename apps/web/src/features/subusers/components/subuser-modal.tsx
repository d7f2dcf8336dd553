import { hasPermission } from '@aerie/shared/permissions/can';
import { WILDCARD_PERMISSION } from '@aerie/shared/permissions/permissions';
import { type SubuserFormValues, subuserFormSchema } from '@aerie/shared/subusers/subusers-forms';
import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useRef } from 'react';
import { FormProvider, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { FormField } from '@/components/ui/field';
import { FlashMessageRender } from '@/components/ui/flash-message-render';
import { Modal } from '@/components/ui/modal';
import { useServer, useServerPermissions } from '@/features/servers/hooks/use-server';
import { isEditorCategory, type PermissionGroup } from '@/features/subusers/api/permissions';
import { type Subuser, useSaveSubuser } from '@/features/subusers/api/subusers';
import { PermissionGroupBox } from '@/features/subusers/components/permission-group-box';
import { subuserModalFlashKey } from '@/features/subusers/components/subusers-flash-keys';
import { flashActions } from '@/stores/flash-store';
import { useUserStore } from '@/stores/user-store';

interface SubuserModalProps {
  visible: boolean;
  /** The subuser to show or change; absent, the modal invites a new one. */
  subuser?: Subuser;
  catalogue: PermissionGroup[];
  /** Closes the modal (it fades out first). */
  onClose: () => void;
  /** Called once it has faded out. */
  onDismissed: () => void;
}

/**
 * "Create new subuser", "Modify permissions for {email}" or "View permissions for {email}" (spec §2 "Users"):
 * the email (create only) and one box of checkboxes per permission category. Only permissions the viewer holds
 * can be ticked, unless they are a root admin or hold `*`; without user.update (user.create when inviting)
 * everything is read-only. A refused save shows inside the modal, which scrolls back to its top (spec §4).
 */
export function SubuserModal({ visible, subuser, catalogue, onClose, onDismissed }: SubuserModalProps) {
  const { t } = useTranslation('server');
  const server = useServer();
  const held = useServerPermissions();
  const rootAdmin = useUserStore((state) => state.user?.rootAdmin === true);
  const save = useSaveSubuser(server.id);
  const top = useRef<HTMLDivElement>(null);

  const form = useForm<SubuserFormValues>({
    resolver: zodResolver(subuserFormSchema),
    defaultValues: { email: subuser?.email ?? '', permissions: subuser?.permissions ?? [] },
    mode: 'onTouched',
  });
  const selected = form.watch('permissions');
  const submitting = form.formState.isSubmitting;

  const canEdit = hasPermission(held, subuser ? 'user.update' : 'user.create');
  const unrestricted = rootAdmin || held[0] === WILDCARD_PERMISSION;
  const isSelectable = (permission: string) => canEdit && (unrestricted || held.includes(permission));

  // The modal's errors belong to this opening only.
  useEffect(() => () => flashActions().clearFlashes(subuserModalFlashKey), []);

  const setSelected = (permissions: string[]) =>
    form.setValue('permissions', permissions, { shouldDirty: true });

  const handleSubmit = form.handleSubmit(async ({ email, permissions }) => {
    flashActions().clearFlashes(subuserModalFlashKey);
    try {
      await save.mutateAsync(subuser ? { uuid: subuser.uuid, permissions } : { email, permissions });
      onClose();
    } catch (error) {
      flashActions().clearAndAddHttpError({ key: subuserModalFlashKey, error });
      top.current?.closest('[role="dialog"]')?.scrollIntoView?.({ block: 'start', behavior: 'smooth' });
    }
  });

  const title = !subuser
    ? t('users.modal.create_title')
    : canEdit
      ? t('users.modal.modify_title', { email: subuser.email })
      : t('users.modal.view_title', { email: subuser.email });

  return (
    <Modal
      visible={visible}
      onDismissed={onDismissed}
      title={title}
      showSpinnerOverlay={submitting}
      size="lg"
    >
      <div ref={top}>
        <FlashMessageRender byKey={subuserModalFlashKey} className="mb-4" />
      </div>
      {!unrestricted && (
        <p className="mb-4 border-s-4 border-sky-500 py-1 ps-4 text-sm text-ink-300">
          {t('users.modal.notice')}
        </p>
      )}
      <FormProvider {...form}>
        <form onSubmit={handleSubmit} noValidate className="space-y-4">
          {!subuser && (
            <FormField<SubuserFormValues>
              name="email"
              type="email"
              label={t('users.modal.email')}
              description={t('users.modal.email_hint')}
              autoComplete="off"
              readOnly={!canEdit}
              autoFocus
            />
          )}
          {catalogue.filter(isEditorCategory).map((group) => (
            <PermissionGroupBox
              key={group.category}
              group={group}
              selected={selected}
              isSelectable={isSelectable}
              editable={canEdit}
              onChange={setSelected}
            />
          ))}
          {canEdit && (
            <div className="flex justify-end">
              <Button type="submit" isLoading={submitting}>
                {subuser ? t('users.modal.save') : t('users.modal.invite')}
              </Button>
            </div>
          )}
        </form>
      </FormProvider>
    </Modal>
  );
}

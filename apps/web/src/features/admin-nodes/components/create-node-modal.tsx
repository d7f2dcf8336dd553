import { FormProvider } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { Button } from '@/components/ui/button';
import { FlashMessageRender } from '@/components/ui/flash-message-render';
import { Modal } from '@/components/ui/modal';
import {
  type NodeFormValues,
  newNodeForm,
  nodeFormFields,
  nodeFormSchema,
  toNodeBody,
} from '@/features/admin-nodes/api/node-form';
import { useCreateNode } from '@/features/admin-nodes/api/nodes';
import { nodeFlashKey } from '@/features/admin-nodes/components/admin-nodes-flash-keys';
import { NodeFormFields } from '@/features/admin-nodes/components/node-form-fields';
import { useSaveForm } from '@/hooks/use-save-form';
import { flashActions } from '@/stores/flash-store';

const flashKey = 'admin:nodes:create';

interface CreateNodeModalProps {
  visible: boolean;
  onClose: () => void;
}

/** A new node; once created, its configuration tab opens (the next step is starting its daemon). */
export function CreateNodeModal({ visible, onClose }: CreateNodeModalProps) {
  const { t } = useTranslation('admin');
  const navigate = useNavigate();
  const create = useCreateNode();
  const { form, submit: handleSubmit } = useSaveForm({
    schema: nodeFormSchema,
    defaultValues: newNodeForm(),
    flashKey,
    apiFields: nodeFormFields,
    save: (values: NodeFormValues) => create.mutateAsync(toNodeBody(values)),
    onSaved: (node) => {
      flashActions().clearFlashes(nodeFlashKey);
      flashActions().addFlash({ key: nodeFlashKey, type: 'success', message: t('nodes.created') });
      navigate(`/admin/nodes/view/${node.id}/configuration`);
    },
  });

  return (
    <Modal
      visible={visible}
      onDismissed={() => {
        form.reset(newNodeForm());
        flashActions().clearFlashes(flashKey);
        onClose();
      }}
      title={t('nodes.create_title')}
      size="lg"
      showSpinnerOverlay={create.isPending}
    >
      <FormProvider {...form}>
        <form onSubmit={handleSubmit} noValidate>
          <FlashMessageRender byKey={flashKey} className="mb-4" />
          <NodeFormFields />
          <div className="mt-6 flex justify-end gap-3">
            <Button variant="secondary" onClick={onClose}>
              {t('actions.cancel')}
            </Button>
            <Button type="submit" isLoading={create.isPending}>
              {t('nodes.create_submit')}
            </Button>
          </div>
        </form>
      </FormProvider>
    </Modal>
  );
}

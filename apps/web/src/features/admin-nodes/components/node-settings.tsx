import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { Button } from '@/components/ui/button';
import { ConfirmationModal } from '@/components/ui/confirmation-modal';
import { ContentBox } from '@/components/ui/content-box';
import { FormBox } from '@/components/ui/form-box';
import { MessageBox } from '@/components/ui/message-box';
import { paths } from '@/config/paths';
import {
  type NodeFormValues,
  nodeFormFields,
  nodeFormSchema,
  nodeFormValues,
  toNodeBody,
} from '@/features/admin-nodes/api/node-form';
import { type AdminNode, nodeToBody, useDeleteNode, useUpdateNode } from '@/features/admin-nodes/api/nodes';
import { nodeFlashKey, nodesFlashKey } from '@/features/admin-nodes/components/admin-nodes-flash-keys';
import { NodeFormFields } from '@/features/admin-nodes/components/node-form-fields';
import { useAdminCan } from '@/hooks/use-admin-can';
import { useSaveForm } from '@/hooks/use-save-form';
import { errorToMessage } from '@/lib/api-client';
import { flashActions } from '@/stores/flash-store';

/** The settings tab: every setting of the node, a new daemon token, and deletion. */
export function NodeSettings({ node }: { node: AdminNode }) {
  const canWrite = useAdminCan('nodes.write');
  return (
    <div className="grid grid-cols-1 gap-6 xl:grid-cols-3">
      <div className="xl:col-span-2">
        <NodeSettingsForm node={node} />
      </div>
      <div className="space-y-6">
        {canWrite && <ResetToken node={node} />}
        {canWrite && <DeleteNode node={node} />}
      </div>
    </div>
  );
}

function NodeSettingsForm({ node }: { node: AdminNode }) {
  const { t } = useTranslation('admin');
  const canWrite = useAdminCan('nodes.write');
  const update = useUpdateNode(node.id);
  const { form, submit: handleSubmit } = useSaveForm({
    schema: nodeFormSchema,
    defaultValues: nodeFormValues(node),
    flashKey: nodeFlashKey,
    apiFields: nodeFormFields,
    save: (values: NodeFormValues) => update.mutateAsync(toNodeBody(values)),
    onSaved: (saved, savedForm) => {
      savedForm.reset(nodeFormValues(saved));
      flashActions().addFlash({ key: nodeFlashKey, type: 'success', message: t('nodes.updated') });
    },
  });

  return (
    <FormBox
      title={t('nodes.tabs.settings')}
      form={form}
      onSubmit={handleSubmit}
      submitLabel={t('actions.save')}
      isSaving={update.isPending}
      readOnly={!canWrite}
      className="space-y-6"
    >
      <NodeFormFields />
    </FormBox>
  );
}

function ResetToken({ node }: { node: AdminNode }) {
  const { t } = useTranslation('admin');
  const update = useUpdateNode(node.id);
  const [confirming, setConfirming] = useState(false);

  const handleConfirm = async () => {
    flashActions().clearFlashes(nodeFlashKey);
    try {
      await update.mutateAsync({ ...nodeToBody(node), reset_secret: true });
      flashActions().addFlash({ key: nodeFlashKey, type: 'success', message: t('nodes.token_reset') });
    } catch (error) {
      flashActions().clearAndAddHttpError({ key: nodeFlashKey, error });
    }
    setConfirming(false);
  };

  return (
    <ContentBox title={t('nodes.reset_title')}>
      <p className="text-sm text-ink-300">{t('nodes.reset_hint')}</p>
      <Button variant="secondary" className="mt-4" onClick={() => setConfirming(true)}>
        {t('nodes.reset')}
      </Button>
      <ConfirmationModal
        visible={confirming}
        onClose={() => setConfirming(false)}
        title={t('nodes.reset_title')}
        confirmLabel={t('nodes.reset_confirm')}
        cancelLabel={t('actions.cancel')}
        onConfirm={() => void handleConfirm()}
        isLoading={update.isPending}
      >
        {t('nodes.reset_text')}
      </ConfirmationModal>
    </ContentBox>
  );
}

function DeleteNode({ node }: { node: AdminNode }) {
  const { t } = useTranslation('admin');
  const navigate = useNavigate();
  const remove = useDeleteNode();
  const [confirming, setConfirming] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);

  const handleConfirm = async () => {
    try {
      await remove.mutateAsync(node.id);
      flashActions().clearFlashes(nodesFlashKey);
      flashActions().addFlash({
        key: nodesFlashKey,
        type: 'success',
        message: t('nodes.deleted', { name: node.name }),
      });
      navigate(paths.adminSection('nodes'));
    } catch (error) {
      setRefusal(errorToMessage(error));
    }
  };

  return (
    <ContentBox title={t('nodes.delete_title')}>
      <p className="text-sm text-ink-300">{t('nodes.delete_hint')}</p>
      <Button
        variant="danger"
        className="mt-4"
        onClick={() => {
          setRefusal(null);
          setConfirming(true);
        }}
      >
        {t('nodes.delete')}
      </Button>
      <ConfirmationModal
        visible={confirming}
        onClose={() => setConfirming(false)}
        title={t('nodes.delete_title')}
        confirmLabel={t('nodes.delete_confirm')}
        cancelLabel={t('actions.cancel')}
        onConfirm={() => void handleConfirm()}
        isLoading={remove.isPending}
        notice={
          refusal && (
            <MessageBox type="error" title={t('nodes.delete_refused')} className="mb-4">
              {refusal}
            </MessageBox>
          )
        }
      >
        {t('nodes.delete_text', { name: node.name })}
      </ConfirmationModal>
    </ContentBox>
  );
}

import { eggVariableBodySchema } from '@aerie/shared/eggs/egg-bodies';
import { useEffect, useState } from 'react';
import { Controller, FormProvider, type Path, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { ContentBox } from '@/components/ui/content-box';
import { FormField, FormTextareaField } from '@/components/ui/field';
import { FlashMessageRender } from '@/components/ui/flash-message-render';
import { Modal } from '@/components/ui/modal';
import { Switch } from '@/components/ui/switch';
import {
  createEggVariable,
  deleteEggVariable,
  type Egg,
  type EggVariable,
  updateEggVariable,
  useNestsMutation,
} from '@/features/admin-nests/api/nests';
import { DeleteButton } from '@/features/admin-nests/components/delete-button';
import { applyServerErrors, type BodyForm, bodyResolver } from '@/features/admin-nests/utils/body-form';
import { useAdminCan } from '@/hooks/use-admin-can';
import { flashActions } from '@/stores/flash-store';

interface VariableValues {
  name: string;
  description: string;
  envVariable: string;
  defaultValue: string;
  userViewable: boolean;
  userEditable: boolean;
  rules: string;
}

const variableFields: Record<string, Path<VariableValues>> = {
  name: 'name',
  description: 'description',
  env_variable: 'envVariable',
  default_value: 'defaultValue',
  user_viewable: 'userViewable',
  user_editable: 'userEditable',
  rules: 'rules',
};

const variableForm: BodyForm<VariableValues> = {
  toBody: (values) => ({
    name: values.name,
    description: values.description,
    env_variable: values.envVariable,
    default_value: values.defaultValue,
    user_viewable: values.userViewable,
    user_editable: values.userEditable,
    rules: values.rules,
  }),
  fieldOf: (field) => variableFields[field],
};

const valuesOf = (variable?: EggVariable): VariableValues => ({
  name: variable?.name ?? '',
  description: variable?.description ?? '',
  envVariable: variable?.envVariable ?? '',
  defaultValue: variable?.defaultValue ?? '',
  userViewable: variable?.userViewable ?? true,
  userEditable: variable?.userEditable ?? true,
  rules: variable?.rules ?? 'required|string',
});

const flashKey = 'admin:nests:variable';

function VariableModal({
  egg,
  variable,
  visible,
  onClose,
}: {
  egg: Egg;
  variable?: EggVariable;
  visible: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation('admin');
  const save = useNestsMutation((values: VariableValues) =>
    variable
      ? updateEggVariable(egg, variable.id, variableForm.toBody(values))
      : createEggVariable(egg, variableForm.toBody(values)),
  );
  const form = useForm<VariableValues>({
    resolver: bodyResolver(eggVariableBodySchema, variableForm),
    defaultValues: valuesOf(variable),
    mode: 'onTouched',
  });
  const { reset } = form;
  useEffect(() => {
    if (visible) {
      reset(valuesOf(variable));
      flashActions().clearFlashes(flashKey);
    }
  }, [visible, variable, reset]);

  const handleSubmit = form.handleSubmit(async (values) => {
    flashActions().clearFlashes(flashKey);
    try {
      await save.mutateAsync([values]);
      onClose();
    } catch (error) {
      if (!applyServerErrors(form, variableForm.fieldOf, error)) {
        flashActions().clearAndAddHttpError({ key: flashKey, error });
      }
    }
  });

  return (
    <Modal
      visible={visible}
      onDismissed={onClose}
      title={
        variable
          ? t('nests.variables.edit_title', { name: variable.name })
          : t('nests.variables.create_title')
      }
      showSpinnerOverlay={form.formState.isSubmitting}
      size="lg"
    >
      <FlashMessageRender byKey={flashKey} className="mb-4" />
      <FormProvider {...form}>
        <form onSubmit={handleSubmit} noValidate className="space-y-5">
          <div className="grid grid-cols-1 gap-5 md:grid-cols-2">
            <FormField<VariableValues> name="name" label={t('nests.variables.name')} autoComplete="off" />
            <FormField<VariableValues>
              name="envVariable"
              label={t('nests.variables.env')}
              description={t('nests.variables.env_hint')}
              className="font-mono"
              autoComplete="off"
            />
          </div>
          <FormTextareaField<VariableValues> name="description" label={t('nests.description')} rows={2} />
          <FormField<VariableValues> name="defaultValue" label={t('nests.variables.default')} />
          <div className="flex flex-wrap gap-6">
            <Controller
              control={form.control}
              name="userViewable"
              render={({ field }) => (
                <Switch
                  checked={field.value}
                  onChange={field.onChange}
                  label={t('nests.variables.viewable')}
                />
              )}
            />
            <Controller
              control={form.control}
              name="userEditable"
              render={({ field }) => (
                <Switch
                  checked={field.value}
                  onChange={field.onChange}
                  label={t('nests.variables.editable')}
                />
              )}
            />
          </div>
          <FormField<VariableValues>
            name="rules"
            label={t('nests.variables.rules')}
            description={t('nests.variables.rules_hint')}
            className="font-mono"
          />
          <div className="flex justify-end gap-3">
            <Button variant="secondary" onClick={onClose}>
              {t('actions.cancel')}
            </Button>
            <Button type="submit" isLoading={form.formState.isSubmitting}>
              {variable ? t('actions.save') : t('nests.variables.create')}
            </Button>
          </div>
        </form>
      </FormProvider>
    </Modal>
  );
}

/** The egg's variables: each with its env name, default and rules; add, edit, delete. */
export function EggVariables({ egg }: { egg: Egg }) {
  const { t } = useTranslation('admin');
  const [editing, setEditing] = useState<EggVariable | 'new' | null>(null);
  const remove = useNestsMutation((id: number) => deleteEggVariable(egg, id));
  const canWrite = useAdminCan('eggs.write');
  return (
    <ContentBox title={t('nests.variables.title')}>
      {canWrite && (
        <div className="mb-4 flex justify-end">
          <Button size="sm" onClick={() => setEditing('new')}>
            {t('nests.variables.create')}
          </Button>
        </div>
      )}
      {egg.variables.length === 0 ? (
        <p className="text-sm text-ink-400">{t('nests.variables.empty')}</p>
      ) : (
        <ul className="divide-y divide-ink-800">
          {egg.variables.map((variable) => (
            <li key={variable.id} className="flex flex-wrap items-start justify-between gap-3 py-3">
              <div className="min-w-0">
                <p className="font-medium text-ink-100">{variable.name}</p>
                <p className="font-mono text-xs text-ink-300">
                  {variable.envVariable} = {variable.defaultValue}
                </p>
                <p className="font-mono text-xs text-ink-400">{variable.rules}</p>
              </div>
              {canWrite && (
                <div className="flex gap-2">
                  <Button variant="secondary" size="sm" onClick={() => setEditing(variable)}>
                    {t('nests.edit')}
                  </Button>
                  <DeleteButton
                    title={t('nests.variables.delete_title', { name: variable.name })}
                    text={t('nests.variables.delete_text')}
                    onDelete={() => remove.mutateAsync([variable.id])}
                  />
                </div>
              )}
            </li>
          ))}
        </ul>
      )}
      <VariableModal
        egg={egg}
        variable={editing === 'new' || editing === null ? undefined : editing}
        visible={editing !== null}
        onClose={() => setEditing(null)}
      />
    </ContentBox>
  );
}

import { eggUpdateBodySchema } from '@aerie/shared/eggs/egg-bodies';
import { type Path, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { FormField, FormTextareaField } from '@/components/ui/field';
import { FormBox } from '@/components/ui/form-box';
import { type Egg, updateEgg, useNestsMutation } from '@/features/admin-nests/api/nests';
import { applyServerErrors, type BodyForm, bodyResolver } from '@/features/admin-nests/utils/body-form';
import { useAdminCan } from '@/hooks/use-admin-can';
import { flashActions } from '@/stores/flash-store';

export const eggFlashKey = 'admin:nests:egg';

/** `Label|image` per line; a line without a label is its own label. */
export function parseDockerImages(text: string): Record<string, string> {
  const images: Record<string, string> = {};
  for (const line of text.split(/\r?\n/)) {
    if (line.trim() === '') continue;
    const bar = line.indexOf('|');
    const label = (bar === -1 ? line : line.slice(0, bar)).trim();
    const image = (bar === -1 ? line : line.slice(bar + 1)).trim();
    images[label || image] = image;
  }
  return images;
}

export const formatDockerImages = (images: Record<string, string>) =>
  Object.entries(images)
    .map(([label, image]) => (label === image ? image : `${label}|${image}`))
    .join('\n');

/** One PATCH form of the egg page: its own fields, checked by the egg body's rules, saved on their own. */
function useEggSection<F extends Record<string, string>>(egg: Egg, section: BodyForm<F>, values: F) {
  const { t } = useTranslation('admin');
  const save = useNestsMutation((body: Record<string, unknown>) => updateEgg(egg, body));
  const form = useForm<F>({
    resolver: bodyResolver(eggUpdateBodySchema, section, { trim: false }),
    // biome-ignore lint/suspicious/noExplicitAny: react-hook-form's DefaultValues of a generic F.
    defaultValues: values as any,
    mode: 'onTouched',
  });
  const handleSubmit = form.handleSubmit(async (current) => {
    flashActions().clearFlashes(eggFlashKey);
    try {
      await save.mutateAsync([section.toBody(current)]);
      flashActions().addFlash({ key: eggFlashKey, type: 'success', message: t('nests.egg.saved') });
    } catch (error) {
      if (!applyServerErrors(form, section.fieldOf, error)) {
        flashActions().clearAndAddHttpError({ key: eggFlashKey, error });
      }
    }
  });
  return { form, handleSubmit };
}

interface ConfigurationValues extends Record<string, string> {
  name: string;
  description: string;
  dockerImages: string;
  startup: string;
  configStop: string;
  done: string;
}

const configurationFields: Record<string, Path<ConfigurationValues>> = {
  name: 'name',
  description: 'description',
  docker_images: 'dockerImages',
  startup: 'startup',
  config_stop: 'configStop',
  config_startup: 'done',
};

const fieldIn =
  <F extends Record<string, string>>(fields: Record<string, Path<F>>) =>
  (sourceField: string) =>
    fields[sourceField.split('.')[0] ?? ''];

const configurationForm: BodyForm<ConfigurationValues> = {
  toBody: (values) => {
    const done = values.done.split(/\r?\n/).filter((line) => line.trim() !== '');
    return {
      name: values.name,
      description: values.description,
      docker_images: parseDockerImages(values.dockerImages),
      startup: values.startup,
      config_stop: values.configStop,
      config_startup: done.length === 0 ? null : done.length === 1 ? done[0] : done,
    };
  },
  fieldOf: fieldIn(configurationFields),
};

/** Name, description, images, startup command, stop command and done strings. */
export function EggConfigurationForm({ egg }: { egg: Egg }) {
  const canWrite = useAdminCan('eggs.write');
  const { t } = useTranslation('admin');
  const { form, handleSubmit } = useEggSection(egg, configurationForm, {
    name: egg.name,
    description: egg.description ?? '',
    dockerImages: formatDockerImages(egg.dockerImages),
    startup: egg.startup,
    configStop: egg.configStop,
    done: egg.done.join('\n'),
  });
  return (
    <FormBox
      title={t('nests.egg.configuration')}
      form={form}
      onSubmit={handleSubmit}
      submitLabel={t('actions.save')}
      isSaving={form.formState.isSubmitting}
      readOnly={!canWrite}
      label={t('nests.egg.configuration')}
    >
      <div className="grid grid-cols-1 gap-5 md:grid-cols-2">
        <FormField<ConfigurationValues> name="name" label={t('nests.name')} autoComplete="off" />
        <FormField<ConfigurationValues>
          name="configStop"
          label={t('nests.egg.stop')}
          description={t('nests.egg.stop_hint')}
          className="font-mono"
        />
      </div>
      <FormTextareaField<ConfigurationValues> name="description" label={t('nests.description')} rows={3} />
      <FormTextareaField<ConfigurationValues>
        name="dockerImages"
        label={t('nests.egg.docker_images')}
        description={t('nests.egg.docker_images_hint')}
        rows={4}
        spellCheck={false}
        className="font-mono"
      />
      <FormTextareaField<ConfigurationValues>
        name="startup"
        label={t('nests.egg.startup')}
        rows={3}
        spellCheck={false}
        className="font-mono"
      />
      <FormTextareaField<ConfigurationValues>
        name="done"
        label={t('nests.egg.done')}
        description={t('nests.egg.done_hint')}
        rows={2}
        spellCheck={false}
        className="font-mono"
      />
    </FormBox>
  );
}

interface ScriptValues extends Record<string, string> {
  scriptContainer: string;
  scriptEntry: string;
  scriptInstall: string;
}

const scriptForm: BodyForm<ScriptValues> = {
  toBody: (values) => ({
    script_container: values.scriptContainer,
    script_entry: values.scriptEntry,
    script_install: values.scriptInstall,
  }),
  fieldOf: fieldIn<ScriptValues>({
    script_container: 'scriptContainer',
    script_entry: 'scriptEntry',
    script_install: 'scriptInstall',
  }),
};

/** The install script: its container, entrypoint and the script itself. */
export function EggScriptForm({ egg }: { egg: Egg }) {
  const canWrite = useAdminCan('eggs.write');
  const { t } = useTranslation('admin');
  const { form, handleSubmit } = useEggSection(egg, scriptForm, {
    scriptContainer: egg.scriptContainer,
    scriptEntry: egg.scriptEntry,
    scriptInstall: egg.scriptInstall,
  });
  return (
    <FormBox
      title={t('nests.egg.install_script')}
      form={form}
      onSubmit={handleSubmit}
      submitLabel={t('actions.save')}
      isSaving={form.formState.isSubmitting}
      readOnly={!canWrite}
      label={t('nests.egg.install_script')}
    >
      <div className="grid grid-cols-1 gap-5 md:grid-cols-2">
        <FormField<ScriptValues>
          name="scriptContainer"
          label={t('nests.egg.script_container')}
          className="font-mono"
        />
        <FormField<ScriptValues>
          name="scriptEntry"
          label={t('nests.egg.script_entry')}
          className="font-mono"
        />
      </div>
      <FormTextareaField<ScriptValues>
        name="scriptInstall"
        label={t('nests.egg.script')}
        rows={16}
        spellCheck={false}
        className="font-mono text-xs"
      />
    </FormBox>
  );
}

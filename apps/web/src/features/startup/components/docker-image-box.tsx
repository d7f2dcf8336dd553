import { canAll } from '@aerie/shared/permissions/can';
import { useTranslation } from 'react-i18next';
import { SelectField } from '@/components/admin/select-field';
import { ContentBox } from '@/components/ui/content-box';
import { Field } from '@/components/ui/field';
import { useSetDockerImage } from '@/features/server-settings/api/server-settings';
import { useServer, useServerPermissions } from '@/features/servers/hooks/use-server';
import { flashActions } from '@/stores/flash-store';

/** The startup page's errors about the image show at the top of the page (spec §8). */
export const dockerImageFlashKey = 'startup:image';

/**
 * The server's Docker image. A choice only when the egg offers more than one and the server runs one of them
 * (spec §2, §5); an image an administrator set by hand shows as it is, with why it cannot change here.
 */
export function DockerImageBox({ images }: { images: Record<string, string> }) {
  const { t } = useTranslation('server');
  const server = useServer();
  const canChange = canAll(useServerPermissions(), ['startup.docker-image']);
  const setImage = useSetDockerImage(server.id);
  const offered = Object.entries(images);
  const current = server.dockerImage;
  const isCustom = !offered.some(([, image]) => image.toLowerCase() === current.toLowerCase());
  const selectable = offered.length > 1 && !isCustom;

  const handleChange = (image: string) => {
    flashActions().clearFlashes(dockerImageFlashKey);
    setImage.mutate(image, {
      onError: (error) => flashActions().clearAndAddHttpError({ key: dockerImageFlashKey, error }),
    });
  };

  return (
    <ContentBox>
      {selectable ? (
        <SelectField
          label={t('startup.docker_image')}
          options={offered.map(([label, image]) => ({ value: image, label }))}
          // While the change is on its way the new choice shows; a refused one falls back to the stored image.
          value={setImage.isPending ? setImage.variables : current}
          onChange={(event) => handleChange(event.currentTarget.value)}
          disabled={!canChange || setImage.isPending}
          description={t('startup.docker_image_hint')}
        />
      ) : (
        <Field
          label={t('startup.docker_image')}
          value={current}
          disabled
          readOnly
          description={isCustom ? t('startup.docker_image_custom') : undefined}
        />
      )}
    </ContentBox>
  );
}

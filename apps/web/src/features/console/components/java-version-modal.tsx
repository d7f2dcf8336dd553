import { ClientEvent, DaemonEvent } from '@aerie/shared/console/socket-events';
import { canAll } from '@aerie/shared/permissions/can';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SelectField } from '@/components/admin/select-field';
import { Button } from '@/components/ui/button';
import { FlashMessageRender } from '@/components/ui/flash-message-render';
import { Modal } from '@/components/ui/modal';
import { useConsoleSocket } from '@/features/console/hooks/use-console-socket';
import { useSetDockerImage } from '@/features/server-settings/api/server-settings';
import { useServer, useServerPermissions } from '@/features/servers/hooks/use-server';
import { useServerStateStore } from '@/features/servers/stores/server-state-store';
import { startupQueryOptions } from '@/features/startup/api/startup';
import { flashActions } from '@/stores/flash-store';

/** What Java prints when the server's jar needs a newer Java than the image has (matched case-insensitively). */
export const javaVersionErrors = [
  'minecraft 1.17 requires running the server with java 16 or above',
  'minecraft 1.18 requires running the server with java 17 or above',
  'java.lang.unsupportedclassversionerror',
  'unsupported major.minor version',
  'has been compiled by a more recent version of the java runtime',
];
export const javaVersionFlashKey = 'feature:java_version';

/** The image to offer first: the first one the server does not run now (that one just failed). */
function firstOther(images: Record<string, string>, current: string): string {
  const offered = Object.values(images);
  return offered.find((image) => image.toLowerCase() !== current.toLowerCase()) ?? offered[0] ?? '';
}

/**
 * The egg's `java_version` feature (spec §2 Console): when the console shows a Java version error, say so; a user
 * with startup.docker-image picks one of the egg's images (PUT …/settings/docker-image, as the Startup page does)
 * and the server restarts on it. Anyone else gets the explanation only.
 */
export function JavaVersionModal() {
  const { t } = useTranslation('server');
  const server = useServer();
  const socket = useConsoleSocket();
  const status = useServerStateStore((state) => state.status);
  const canChange = canAll(useServerPermissions(), ['startup.docker-image']);
  const [visible, setVisible] = useState(false);
  const [selected, setSelected] = useState('');
  const setImage = useSetDockerImage(server.id);
  // The egg's images, fresh each time the modal opens (the Startup page's data).
  const startup = useQuery({ ...startupQueryOptions(server.id), enabled: visible && canChange });
  const images = startup.data?.dockerImages;
  // Until the user picks one, the first image that is not the one that just failed: worked out while rendering, so
  // the list never shows another choice first.
  const choice = selected || (images ? firstOther(images, server.dockerImage) : '');

  useEffect(() => {
    // A running server has the Java it needs; the error only matters while it fails to start.
    if (!socket || status === 'running') return;
    return socket.on(DaemonEvent.consoleOutput, (line = '') => {
      const lower = line.toLowerCase();
      if (javaVersionErrors.some((error) => lower.includes(error))) setVisible(true);
    });
  }, [socket, status]);

  useEffect(() => {
    if (startup.error)
      flashActions().clearAndAddHttpError({ key: javaVersionFlashKey, error: startup.error });
  }, [startup.error]);

  const handleUpdate = async () => {
    flashActions().clearFlashes(javaVersionFlashKey);
    try {
      await setImage.mutateAsync(choice);
      socket?.send(ClientEvent.setState, 'restart');
      setVisible(false);
    } catch (error) {
      flashActions().clearAndAddHttpError({ key: javaVersionFlashKey, error });
    }
  };

  const handleDismissed = () => {
    setVisible(false);
    setSelected('');
    flashActions().clearFlashes(javaVersionFlashKey);
  };

  return (
    <Modal
      visible={visible}
      onDismissed={handleDismissed}
      title={t('console.java_version.title')}
      showSpinnerOverlay={setImage.isPending}
      closeOnBackground={false}
    >
      <FlashMessageRender byKey={javaVersionFlashKey} className="mb-4" />
      <p className="text-sm text-ink-200">
        {t('console.java_version.message')}
        {canChange && ` ${t('console.java_version.select_hint')}`}
      </p>
      {canChange && (
        <div className="mt-4">
          {images ? (
            <SelectField
              label={t('console.java_version.image')}
              options={Object.entries(images).map(([label, image]) => ({ value: image, label }))}
              value={choice}
              onChange={(event) => setSelected(event.currentTarget.value)}
            />
          ) : (
            startup.isPending && <p className="text-sm text-ink-400">{t('console.java_version.loading')}</p>
          )}
        </div>
      )}
      <div className="mt-6 flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
        <Button variant="secondary" onClick={() => setVisible(false)}>
          {t('console.java_version.cancel')}
        </Button>
        {canChange && (
          <Button onClick={() => void handleUpdate()} disabled={!choice}>
            {t('console.java_version.update')}
          </Button>
        )}
      </div>
    </Modal>
  );
}

import { ClientEvent, DaemonEvent } from '@aerie/shared/console/socket-events';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { FlashMessageRender } from '@/components/ui/flash-message-render';
import { Modal } from '@/components/ui/modal';
import { useConsoleSocket } from '@/features/console/hooks/use-console-socket';
import { writeFileContents } from '@/features/files/api/files';
import { useServer } from '@/features/servers/hooks/use-server';
import { useServerStateStore } from '@/features/servers/stores/server-state-store';
import { flashActions } from '@/stores/flash-store';

/** What Minecraft prints when eula.txt does not say eula=true (matched case-insensitively). */
export const eulaPrompts = [
  'you need to agree to the eula in order to run the server',
  'go to eula.txt for more info.',
];
export const eulaFlashKey = 'feature:eula';
const eulaUrl = 'https://aka.ms/MinecraftEULA';

/**
 * The egg's `eula` feature: when the console shows Minecraft's EULA prompt, ask to accept it; accepting writes
 * eula=true to eula.txt and restarts the server.
 */
export function EulaModal() {
  const { t } = useTranslation('server');
  const server = useServer();
  const socket = useConsoleSocket();
  const status = useServerStateStore((state) => state.status);
  const [visible, setVisible] = useState(false);
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    // A running server has accepted it already; the prompt only matters while it fails to start.
    if (!socket || status === 'running') return;
    return socket.on(DaemonEvent.consoleOutput, (line = '') => {
      const lower = line.toLowerCase();
      if (eulaPrompts.some((prompt) => lower.includes(prompt))) setVisible(true);
    });
  }, [socket, status]);

  const handleAccept = async () => {
    setSaving(true);
    flashActions().clearFlashes(eulaFlashKey);
    try {
      await writeFileContents(server.id, 'eula.txt', 'eula=true');
      socket?.send(ClientEvent.setState, 'restart');
      setVisible(false);
    } catch (error) {
      console.error(error);
      flashActions().clearAndAddHttpError({ key: eulaFlashKey, error });
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      visible={visible}
      onDismissed={() => setVisible(false)}
      title={t('console.eula.title')}
      showSpinnerOverlay={saving}
      closeOnBackground={false}
    >
      <FlashMessageRender byKey={eulaFlashKey} className="mb-4" />
      <p className="text-sm text-ink-200">{t('console.eula.message')}</p>
      <a
        href={eulaUrl}
        target="_blank"
        rel="noreferrer noopener"
        className="mt-2 inline-block text-sm text-brand-300 underline"
      >
        {t('console.eula.link')}
      </a>
      <div className="mt-6 flex justify-end gap-3">
        <Button variant="secondary" onClick={() => setVisible(false)}>
          {t('console.eula.cancel')}
        </Button>
        <Button onClick={() => void handleAccept()}>{t('console.eula.accept')}</Button>
      </div>
    </Modal>
  );
}

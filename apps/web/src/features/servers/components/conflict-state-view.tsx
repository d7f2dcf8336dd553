import { useTranslation } from 'react-i18next';
import { FlashMessageRender } from '@/components/ui/flash-message-render';
import { ServerDownIllustration } from '@/components/ui/illustrations';
import { ScreenBlock } from '@/components/ui/screen-block';
import type { Server } from '@/features/servers/api/transformers';

type BlockedReason = 'installing' | 'suspended' | 'transferring' | 'restoring_backup';

/** Which notice a server in a conflict state gets (spec "Blocked views"; the first matching row wins). */
export function blockedReason(server: Pick<Server, 'status' | 'isTransferring'>): BlockedReason {
  const { status } = server;
  // A failed reinstall is still the installer's business, like a failed install.
  if (status === 'installing' || status === 'install_failed' || status === 'reinstall_failed')
    return 'installing';
  if (status === 'suspended') return 'suspended';
  if (server.isTransferring) return 'transferring';
  return 'restoring_backup';
}

/**
 * Shown in place of a server page while the server cannot be used, under the notices the page left (`flashKey`),
 * such as the one saying the reinstall that blocked it has begun.
 */
export function ConflictStateView({
  server,
  flashKey,
}: {
  server: Pick<Server, 'status' | 'isTransferring'>;
  flashKey?: string | undefined;
}) {
  const { t } = useTranslation('server');
  const reason = blockedReason(server);
  return (
    <>
      {flashKey !== undefined && (
        <FlashMessageRender byKey={flashKey} className="mx-auto mt-6 max-w-3xl px-4" />
      )}
      <ScreenBlock
        title={t(`blocked.${reason}.title`)}
        message={t(`blocked.${reason}.message`)}
        illustration={<ServerDownIllustration />}
      />
    </>
  );
}

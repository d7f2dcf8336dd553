import type { ReactNode } from 'react';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { CopyOnClick } from '@/components/ui/copy-on-click';
import { FlashMessageRender } from '@/components/ui/flash-message-render';
import { Modal } from '@/components/ui/modal';
import {
  jdbcConnectionString,
  type ServerDatabase,
  useRotateServerDatabasePassword,
} from '@/features/databases/api/databases';
import { databaseConnectionFlashKey } from '@/features/databases/components/databases-flash-keys';
import { Can } from '@/features/servers/components/can';
import { useServer } from '@/features/servers/hooks/use-server';
import { flashActions } from '@/stores/flash-store';

interface DatabaseConnectionModalProps {
  database: ServerDatabase;
  visible: boolean;
  /** Closes the modal (it fades out first). */
  onClose: () => void;
  /** Called once it has faded out. */
  onDismissed: () => void;
}

/** A label over a value, in the modal's list. */
function Detail({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <dt className="text-xs font-medium uppercase tracking-wide text-ink-400">{label}</dt>
      <dd className="mt-1 rounded-md border border-ink-700 bg-ink-900 px-3 py-2 font-mono text-sm text-ink-100">
        {children}
      </dd>
    </div>
  );
}

/**
 * "Database connection details" (spec §2 "Databases"): the endpoint, where connections may come from, the username,
 * the password (database.view_password) and the JDBC string, each but the origin copied on click. Rotate Password
 * (database.update) puts the new password in place at once; a refusal shows here under `database-connection-modal`.
 */
export function DatabaseConnectionModal({
  database,
  visible,
  onClose,
  onDismissed,
}: DatabaseConnectionModalProps) {
  const { t } = useTranslation('server');
  const server = useServer();
  const rotate = useRotateServerDatabasePassword(server.id);
  const jdbc = jdbcConnectionString(database);

  // The modal's errors belong to this opening only.
  useEffect(() => () => flashActions().clearFlashes(databaseConnectionFlashKey), []);

  const handleRotate = async () => {
    flashActions().clearFlashes(databaseConnectionFlashKey);
    try {
      await rotate.mutateAsync(database.id);
    } catch (error) {
      flashActions().clearAndAddHttpError({ key: databaseConnectionFlashKey, error });
    }
  };

  return (
    <Modal
      visible={visible}
      onDismissed={onDismissed}
      title={t('databases.connection.title')}
      showSpinnerOverlay={rotate.isPending}
      size="lg"
    >
      <FlashMessageRender byKey={databaseConnectionFlashKey} className="mb-4" />
      <dl className="space-y-4">
        <Detail label={t('databases.connection.endpoint')}>
          <CopyOnClick text={database.endpoint}>{database.endpoint}</CopyOnClick>
        </Detail>
        <Detail label={t('databases.connection.connections_from')}>{database.connectionsFrom}</Detail>
        <Detail label={t('databases.connection.username')}>
          <CopyOnClick text={database.username}>{database.username}</CopyOnClick>
        </Detail>
        <Can action="database.view_password">
          {database.password !== null && (
            <Detail label={t('databases.connection.password')}>
              <CopyOnClick text={database.password}>{database.password}</CopyOnClick>
            </Detail>
          )}
        </Can>
        <Detail label={t('databases.connection.jdbc')}>
          <CopyOnClick text={jdbc}>{jdbc}</CopyOnClick>
        </Detail>
      </dl>
      <div className="mt-6 flex flex-wrap justify-end gap-3">
        <Can action="database.update">
          <Button variant="secondary" onClick={() => void handleRotate()} isLoading={rotate.isPending}>
            {t('databases.connection.rotate')}
          </Button>
        </Can>
        <Button onClick={onClose}>{t('databases.connection.close')}</Button>
      </div>
    </Modal>
  );
}

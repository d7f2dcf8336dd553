import clsx from 'clsx';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CopyOnClick } from '@/components/ui/copy-on-click';
import { DatabaseIcon, EyeIcon, TrashIcon } from '@/components/ui/icons';
import type { ServerDatabase } from '@/features/databases/api/databases';
import { DatabaseConnectionModal } from '@/features/databases/components/database-connection-modal';
import { DeleteDatabaseModal } from '@/features/databases/components/delete-database-modal';
import { Can } from '@/features/servers/components/can';

/** Which modal the row has open, and whether it is open or still fading out. */
type ModalState = { kind: 'connection' | 'delete'; open: boolean } | null;

const iconButton =
  'rounded-md p-2 text-ink-400 transition-colors focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-500/50';

/** A value with its label under it. */
function Cell({ label, children, className }: { label: string; children: ReactNode; className?: string }) {
  return (
    <div className={clsx('min-w-0', className)}>
      {/* Wraps rather than truncates: a clipped value would run under its copy icon (a password is 24 characters). */}
      <div className="break-all font-mono text-sm text-ink-100">{children}</div>
      <p className="mt-1 text-[0.65rem] uppercase tracking-wide text-ink-500">{label}</p>
    </div>
  );
}

/**
 * A database (spec §2 "Databases"): its name, endpoint, where connections may come from, username and, with
 * database.view_password, its password; the connection details (where the password rotates) and Delete
 * (database.delete).
 */
export function DatabaseRow({ database }: { database: ServerDatabase }) {
  const { t } = useTranslation('server');
  const [modal, setModal] = useState<ModalState>(null);
  const close = () => setModal((state) => state && { ...state, open: false });
  const dismissed = () => setModal(null);

  return (
    <li
      aria-label={database.name}
      className="flex flex-wrap items-center gap-4 rounded-xl border border-ink-800 bg-ink-900/70 px-5 py-4 lg:flex-nowrap"
    >
      <div className="flex w-full min-w-0 items-center gap-4 lg:w-auto lg:flex-1">
        <DatabaseIcon className="size-5 shrink-0 text-ink-300" />
        <CopyOnClick text={database.name} className="min-w-0 font-medium text-ink-50">
          {database.name}
        </CopyOnClick>
      </div>
      <Cell label={t('databases.row.endpoint')} className="lg:w-44">
        <CopyOnClick text={database.endpoint}>{database.endpoint}</CopyOnClick>
      </Cell>
      <Cell label={t('databases.row.connections_from')} className="lg:w-28">
        {database.connectionsFrom}
      </Cell>
      <Cell label={t('databases.row.username')} className="lg:w-40">
        <CopyOnClick text={database.username}>{database.username}</CopyOnClick>
      </Cell>
      <Can action="database.view_password">
        {database.password !== null && (
          <Cell label={t('databases.row.password')} className="lg:w-48">
            <CopyOnClick text={database.password}>{database.password}</CopyOnClick>
          </Cell>
        )}
      </Can>
      <div className="ms-auto flex items-center gap-1">
        <button
          type="button"
          aria-label={t('databases.row.details', { name: database.name })}
          title={t('databases.row.details', { name: database.name })}
          onClick={() => setModal({ kind: 'connection', open: true })}
          className={clsx(iconButton, 'hover:bg-ink-800 hover:text-ink-50')}
        >
          <EyeIcon className="size-5" />
        </button>
        <Can action="database.delete">
          <button
            type="button"
            aria-label={t('databases.row.delete', { name: database.name })}
            title={t('databases.row.delete', { name: database.name })}
            onClick={() => setModal({ kind: 'delete', open: true })}
            className={clsx(iconButton, 'hover:bg-red-500/10 hover:text-red-400')}
          >
            <TrashIcon className="size-5" />
          </button>
        </Can>
      </div>

      {modal?.kind === 'connection' && (
        <DatabaseConnectionModal
          database={database}
          visible={modal.open}
          onClose={close}
          onDismissed={dismissed}
        />
      )}
      {modal?.kind === 'delete' && (
        <DeleteDatabaseModal
          database={database}
          visible={modal.open}
          onClose={close}
          onDismissed={dismissed}
        />
      )}
    </li>
  );
}

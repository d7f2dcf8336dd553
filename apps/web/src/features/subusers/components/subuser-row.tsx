import clsx from 'clsx';
import { useTranslation } from 'react-i18next';
import { Avatar } from '@/components/ui/avatar';
import { EyeIcon, LockIcon, LockOpenIcon, PencilIcon, TrashIcon } from '@/components/ui/icons';
import { Can } from '@/features/servers/components/can';
import { visiblePermissionCount } from '@/features/subusers/api/permissions';
import type { Subuser } from '@/features/subusers/api/subusers';

interface SubuserRowProps {
  subuser: Subuser;
  /** The viewer's own row: no edit, view or delete (spec §6). */
  isSelf: boolean;
  canUpdate: boolean;
  onOpen: (subuser: Subuser) => void;
  onDelete: (subuser: Subuser) => void;
}

const iconButton =
  'rounded-md p-2 text-ink-400 transition-colors focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-500/50';

/**
 * A subuser: avatar, email, whether they use two-factor authentication (red when not), how many permissions they
 * hold (websocket.connect left out), and Edit (user.update; View without it) and Delete (user.delete).
 */
export function SubuserRow({ subuser, isSelf, canUpdate, onOpen, onDelete }: SubuserRowProps) {
  const { t } = useTranslation('server');
  const twoFactor = subuser.twoFactorEnabled ? t('users.two_factor_on') : t('users.two_factor_off');
  const TwoFactorIcon = subuser.twoFactorEnabled ? LockIcon : LockOpenIcon;
  const openLabel = canUpdate
    ? t('users.edit', { email: subuser.email })
    : t('users.view', { email: subuser.email });
  return (
    <li
      aria-label={subuser.email}
      className="flex items-center gap-4 rounded-lg border border-ink-800 bg-ink-900 px-4 py-3"
    >
      <Avatar image={subuser.image} email={subuser.email} />
      <p className="min-w-0 flex-1 truncate text-sm text-ink-50" title={subuser.email}>
        {subuser.email}
      </p>
      <span
        role="img"
        aria-label={twoFactor}
        title={twoFactor}
        data-enabled={subuser.twoFactorEnabled}
        className={clsx(
          'inline-flex items-center',
          subuser.twoFactorEnabled ? 'text-ink-300' : 'text-red-400',
        )}
      >
        <TwoFactorIcon className="size-5" />
      </span>
      <p className="hidden w-28 text-end text-xs text-ink-300 sm:block">
        {t('users.permission_count', { count: visiblePermissionCount(subuser.permissions) })}
      </p>
      {!isSelf && (
        <div className="flex items-center gap-1">
          <button
            type="button"
            aria-label={openLabel}
            title={openLabel}
            onClick={() => onOpen(subuser)}
            className={clsx(iconButton, 'hover:bg-ink-800 hover:text-ink-50')}
          >
            {canUpdate ? <PencilIcon className="size-5" /> : <EyeIcon className="size-5" />}
          </button>
          <Can action="user.delete">
            <button
              type="button"
              aria-label={t('users.delete.label', { email: subuser.email })}
              title={t('users.delete.label', { email: subuser.email })}
              onClick={() => onDelete(subuser)}
              className={clsx(iconButton, 'hover:bg-red-500/10 hover:text-red-400')}
            >
              <TrashIcon className="size-5" />
            </button>
          </Can>
        </div>
      )}
    </li>
  );
}

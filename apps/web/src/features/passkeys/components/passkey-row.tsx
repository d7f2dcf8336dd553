import { useTranslation } from 'react-i18next';
import { KeyIcon, PencilIcon, TrashIcon } from '@/components/ui/icons';
import type { Passkey } from '@/features/passkeys/api/passkeys';
import { formatDate } from '@/lib/format-dates';

/** The account lists' date format (spec §9: 'MMM do, yyyy HH:mm'), in the browser's time zone. */
const dateFormat = 'MMM do, yyyy HH:mm';

interface PasskeyRowProps {
  passkey: Passkey;
  onRename: (passkey: Passkey) => void;
  onRemove: (passkey: Passkey) => void;
}

export function PasskeyRow({ passkey, onRename, onRemove }: PasskeyRowProps) {
  const { t } = useTranslation('account');
  const iconButton = 'rounded-md p-2 text-ink-400 transition-colors';
  return (
    <li className="flex items-center gap-4 rounded-lg border border-ink-800 bg-ink-900 px-4 py-3">
      <KeyIcon className="size-5 shrink-0 text-ink-400" />
      <div className="min-w-0 flex-1">
        <p className="break-words text-sm font-medium text-ink-50">
          {passkey.name}
          {passkey.synced && (
            <span className="ml-2 rounded bg-ink-800 px-1.5 py-0.5 text-xs font-normal text-ink-300">
              {t('passkeys.synced')}
            </span>
          )}
        </p>
        <p className="mt-1 text-xs uppercase tracking-wide text-ink-400">
          {t('passkeys.added', { date: formatDate(passkey.createdAt, dateFormat) })}
          {' · '}
          {passkey.lastUsedAt
            ? t('passkeys.last_used', { date: formatDate(passkey.lastUsedAt, dateFormat) })
            : t('passkeys.never_used')}
        </p>
      </div>
      <button
        type="button"
        aria-label={t('passkeys.rename', { name: passkey.name })}
        title={t('passkeys.rename', { name: passkey.name })}
        onClick={() => onRename(passkey)}
        className={`${iconButton} hover:bg-ink-800 hover:text-ink-100`}
      >
        <PencilIcon className="size-5" />
      </button>
      <button
        type="button"
        aria-label={t('passkeys.remove', { name: passkey.name })}
        title={t('passkeys.remove', { name: passkey.name })}
        onClick={() => onRemove(passkey)}
        className={`${iconButton} hover:bg-red-500/10 hover:text-red-400`}
      >
        <TrashIcon className="size-5" />
      </button>
    </li>
  );
}

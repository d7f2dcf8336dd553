import { useTranslation } from 'react-i18next';
import { KeyIcon, TrashIcon } from '@/components/ui/icons';
import { displayFingerprint, type SshKey } from '@/features/ssh-keys/api/ssh-keys';
import { formatDate } from '@/lib/format-dates';

/** The API key list's format (spec §9: 'MMM do, yyyy HH:mm'), in the browser's time zone. */
const addedFormat = 'MMM do, yyyy HH:mm';

interface SshKeyRowProps {
  sshKey: SshKey;
  onDelete: (key: SshKey) => void;
}

export function SshKeyRow({ sshKey, onDelete }: SshKeyRowProps) {
  const { t } = useTranslation('account');
  return (
    <li className="flex items-center gap-4 rounded-lg border border-ink-800 bg-ink-900 px-4 py-3">
      <KeyIcon className="size-5 shrink-0 text-ink-400" />
      <div className="min-w-0 flex-1">
        <p className="break-words text-sm font-medium text-ink-50">{sshKey.name}</p>
        <p className="mt-1 truncate font-mono text-xs text-ink-200" title={displayFingerprint(sshKey)}>
          {displayFingerprint(sshKey)}
        </p>
        <p className="mt-1 text-xs uppercase tracking-wide text-ink-400">
          {t('ssh_keys.added', { date: formatDate(sshKey.createdAt, addedFormat) })}
        </p>
      </div>
      <button
        type="button"
        aria-label={t('ssh_keys.delete', { name: sshKey.name })}
        title={t('ssh_keys.delete', { name: sshKey.name })}
        onClick={() => onDelete(sshKey)}
        className="rounded-md p-2 text-ink-400 transition-colors hover:bg-red-500/10 hover:text-red-400"
      >
        <TrashIcon className="size-5" />
      </button>
    </li>
  );
}

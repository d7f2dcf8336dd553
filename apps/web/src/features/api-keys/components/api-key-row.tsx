import { useTranslation } from 'react-i18next';
import { CopyOnClick } from '@/components/ui/copy-on-click';
import { KeyIcon, TrashIcon } from '@/components/ui/icons';
import type { ApiKey } from '@/features/api-keys/api/api-keys';
import { formatDate } from '@/lib/format-dates';

/** Spec §9: 'MMM do, yyyy HH:mm', in the browser's time zone. */
const lastUsedFormat = 'MMM do, yyyy HH:mm';

interface ApiKeyRowProps {
  apiKey: ApiKey;
  onDelete: (key: ApiKey) => void;
}

export function ApiKeyRow({ apiKey, onDelete }: ApiKeyRowProps) {
  const { t } = useTranslation('account');
  const lastUsed = apiKey.lastUsedAt ? formatDate(apiKey.lastUsedAt, lastUsedFormat) : t('api_keys.never');
  return (
    <li className="flex items-center gap-4 rounded-lg border border-ink-800 bg-ink-900 px-4 py-3">
      <KeyIcon className="size-5 shrink-0 text-ink-400" />
      <div className="min-w-0 flex-1">
        <p className="break-words text-sm font-medium text-ink-50">{apiKey.description}</p>
        <p className="mt-0.5 text-xs uppercase tracking-wide text-ink-400">
          {t('api_keys.last_used', { date: lastUsed })}
        </p>
      </div>
      {/* Phones (390 px) leave the description the row: the identifier shows from md up. Its own box, as
          CopyOnClick's inline-flex would win over a `hidden` on the button itself. */}
      <div className="hidden shrink-0 md:block">
        <CopyOnClick text={apiKey.identifier}>
          <code className="rounded bg-ink-950 px-2 py-1 font-mono text-xs text-ink-200">
            {apiKey.identifier}
          </code>
        </CopyOnClick>
      </div>
      <button
        type="button"
        aria-label={t('api_keys.delete', { description: apiKey.description })}
        title={t('api_keys.delete', { description: apiKey.description })}
        onClick={() => onDelete(apiKey)}
        className="rounded-md p-2 text-ink-400 transition-colors hover:bg-red-500/10 hover:text-red-400"
      >
        <TrashIcon className="size-5" />
      </button>
    </li>
  );
}

import { useTranslation } from 'react-i18next';
import type { UploadState } from '@/features/files/hooks/use-upload';

/** One bar per file being uploaded. */
export function UploadProgress({ uploads }: { uploads: UploadState[] }) {
  const { t } = useTranslation('server');
  if (uploads.length === 0) return null;
  return (
    <ul className="mb-4 space-y-2">
      {uploads.map((upload) => (
        <li key={upload.name} className="rounded-lg bg-ink-900 px-3 py-2 text-xs text-ink-300">
          <div className="mb-1 truncate">{t('files.uploading', { name: upload.name })}</div>
          <div
            role="progressbar"
            aria-label={t('files.uploading', { name: upload.name })}
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={upload.percent}
            className="h-1.5 overflow-hidden rounded bg-ink-700"
          >
            <div className="h-full bg-brand-500 transition-[width]" style={{ width: `${upload.percent}%` }} />
          </div>
        </li>
      ))}
    </ul>
  );
}

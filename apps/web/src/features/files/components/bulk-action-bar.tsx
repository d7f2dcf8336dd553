import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { useFilePermissions } from '@/features/files/hooks/use-file-permissions';

interface BulkActionBarProps {
  count: number;
  onMove: () => void;
  onArchive: () => void;
  onDelete: () => void;
  onClear: () => void;
}

/** Shown while files are selected; each button needs its permission (spec §6). */
export function BulkActionBar({ count, onMove, onArchive, onDelete, onClear }: BulkActionBarProps) {
  const { t } = useTranslation('server');
  const can = useFilePermissions();
  if (count === 0) return null;
  return (
    <div
      role="toolbar"
      aria-label={t('files.bulk.selected', { count })}
      className="sticky bottom-4 z-10 mt-4 flex flex-wrap items-center justify-between gap-3 rounded-xl border border-ink-700 bg-ink-850 px-4 py-3 shadow-xl"
    >
      <span className="text-sm text-ink-200">{t('files.bulk.selected', { count })}</span>
      <div className="flex flex-wrap gap-2">
        {can.update && (
          <Button size="sm" variant="secondary" onClick={onMove}>
            {t('files.bulk.move')}
          </Button>
        )}
        {can.archive && (
          <Button size="sm" variant="secondary" onClick={onArchive}>
            {t('files.bulk.archive')}
          </Button>
        )}
        {can.delete && (
          <Button size="sm" variant="danger" onClick={onDelete}>
            {t('files.bulk.delete')}
          </Button>
        )}
        <Button size="sm" variant="ghost" onClick={onClear}>
          {t('files.bulk.clear')}
        </Button>
      </div>
    </div>
  );
}

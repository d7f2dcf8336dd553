import clsx from 'clsx';
import { useTranslation } from 'react-i18next';
import { readSettings } from '@/lib/page-globals';

/** The copyright line under every page: the product name and 2015 to the current year. */
export function Footer({ className }: { className?: string }) {
  const { t } = useTranslation();
  const year = new Date().getFullYear();
  return (
    <footer className={clsx('px-4 py-6 text-center text-xs text-ink-500', className)}>
      <p>
        <span className="font-medium text-ink-400">{readSettings().name}</span>{' '}
        {t('footer.copyright', { year })}
      </p>
    </footer>
  );
}

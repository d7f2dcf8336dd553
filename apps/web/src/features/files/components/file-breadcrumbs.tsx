import { Fragment } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { breadcrumbs, encodePathHash } from '@/features/files/utils/paths';

// Underlined, not told apart from the surrounding path by colour alone.
const crumbClass =
  'rounded px-0.5 text-ink-200 underline decoration-ink-500 underline-offset-2 hover:text-brand-300 hover:decoration-brand-300';

/** /home/container/a/b: "container" opens the root, each later crumb its own directory. */
export function FileBreadcrumbs({ directory, fileName }: { directory: string; fileName?: string }) {
  const { t } = useTranslation('server');
  return (
    // A path: the same in every language.
    <nav
      translate="no"
      aria-label={t('files.breadcrumb_label')}
      className="min-w-0 break-all font-mono text-sm text-ink-400"
    >
      /home/
      <Link to={{ hash: encodePathHash('/') }} className={crumbClass}>
        container
      </Link>
      /
      {breadcrumbs(directory).map((crumb) => (
        <Fragment key={crumb.path}>
          <Link to={{ hash: encodePathHash(crumb.path) }} className={crumbClass}>
            {crumb.name}
          </Link>
          /
        </Fragment>
      ))}
      {fileName && <span className="text-ink-100">{fileName}</span>}
    </nav>
  );
}

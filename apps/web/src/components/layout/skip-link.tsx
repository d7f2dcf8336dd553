import type { MouseEvent } from 'react';
import { useTranslation } from 'react-i18next';

/** The id of each layout's <main>, where the skip link goes. */
export const MAIN_CONTENT_ID = 'main-content';

/**
 * "Skip to content": the first stop of the tab order, shown only while focused. It moves focus to the layout's
 * <main> itself rather than following its hash, which the file manager uses for its directory.
 */
export function SkipLink() {
  const { t } = useTranslation();
  const skip = (event: MouseEvent<HTMLAnchorElement>) => {
    const main = document.getElementById(MAIN_CONTENT_ID);
    if (!main) return;
    event.preventDefault();
    main.focus();
    main.scrollIntoView?.({ block: 'start' });
  };
  return (
    <a
      href={`#${MAIN_CONTENT_ID}`}
      onClick={skip}
      className="sr-only focus:not-sr-only focus:fixed focus:top-3 focus:inset-s-3 focus:z-50 focus:rounded-lg focus:bg-ink-800 focus:px-4 focus:py-2 focus:text-sm focus:font-semibold focus:text-ink-50 focus:shadow-lg"
    >
      {t('skip_to_content')}
    </a>
  );
}

import { useEffect } from 'react';
import { readSettings } from '@/lib/page-globals';

/** Sets the tab title to '<page title> | <product name>' while the page is shown. */
export function useDocumentTitle(title: string | undefined) {
  useEffect(() => {
    const name = readSettings().name;
    document.title = title ? `${title} | ${name}` : name;
  }, [title]);
}

import { useEffect } from 'react';
import { readSettings } from '@/lib/page-globals';

/**
 * Sets the tab title to '<page title> | <product name>' while the page is shown; `exact` uses the title as given
 * (the server area's '<server name> | <page title>').
 */
export function useDocumentTitle(title: string | undefined, { exact = false }: { exact?: boolean } = {}) {
  useEffect(() => {
    const name = readSettings().name;
    document.title = title ? (exact ? title : `${title} | ${name}`) : name;
  }, [title, exact]);
}

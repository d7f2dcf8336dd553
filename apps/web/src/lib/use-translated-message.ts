import { useEffect, useReducer } from 'react';
import { useTranslation } from 'react-i18next';
import { type MessagesNamespace, translateMessage } from '@/lib/translate-message';

/**
 * A shown message (a field's error, a flash) in the page's language. The `messages` namespace is fetched the first
 * time a page shows one, not with every page; until it is there the message shows as written.
 */
export function useTranslatedMessage<T extends string | undefined>(message: T): T {
  const { i18n } = useTranslation();
  const [, loaded] = useReducer((count: number) => count + 1, 0);
  const language = i18n.resolvedLanguage ?? i18n.language;
  const wanted = message !== undefined && language !== 'en';
  const catalogue = wanted
    ? (i18n.getResourceBundle(language, 'messages') as MessagesNamespace | undefined)
    : undefined;
  useEffect(() => {
    if (wanted && !catalogue) void i18n.loadNamespaces('messages').then(loaded);
  }, [wanted, catalogue, i18n]);
  return (message === undefined || !catalogue ? message : translateMessage(message, catalogue)) as T;
}

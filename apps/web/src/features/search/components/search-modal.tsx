import { type ServerSearchFormValues, serverSearchFormSchema } from '@aerie/shared/search/search-forms';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { FormProvider, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { FormField } from '@/components/ui/field';
import { FlashMessageRender } from '@/components/ui/flash-message-render';
import { Modal } from '@/components/ui/modal';
import { Spinner } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { searchServersQueryOptions } from '@/features/search/api/search-servers';
import { useDebouncedValue } from '@/hooks/use-debounced-value';
import { flashActions } from '@/stores/flash-store';
import { useUserStore } from '@/stores/user-store';

/** Debounce before a search is sent (spec §9). */
const searchDelayMs = 500;

interface SearchModalProps {
  visible: boolean;
  onDismissed: () => void;
}

export function SearchModal({ visible, onDismissed }: SearchModalProps) {
  const { t } = useTranslation();
  const rootAdmin = useUserStore((state) => state.user?.rootAdmin ?? false);
  const form = useForm<ServerSearchFormValues>({
    resolver: zodResolver(serverSearchFormSchema),
    defaultValues: { term: '' },
    mode: 'onChange',
  });
  const term = useDebouncedValue(form.watch('term').trim(), searchDelayMs);
  const search = useQuery(searchServersQueryOptions(term, rootAdmin));

  useEffect(() => {
    if (search.error) flashActions().clearAndAddHttpError({ key: 'search', error: search.error });
    else flashActions().clearFlashes('search');
  }, [search.error]);

  const handleDismissed = () => {
    form.reset();
    flashActions().clearFlashes('search');
    onDismissed();
  };
  const results = search.isEnabled ? (search.data ?? []) : [];

  return (
    <Modal visible={visible} onDismissed={handleDismissed} title={t('search.title')}>
      <FlashMessageRender byKey="search" className="mb-4" />
      <FormProvider {...form}>
        <form onSubmit={(event) => event.preventDefault()} className="relative">
          <FormField<ServerSearchFormValues>
            name="term"
            label={t('search.term')}
            description={t('search.term_hint')}
            autoComplete="off"
            autoFocus
          />
          {search.isFetching && (
            <span className="absolute top-9 inset-e-3 text-brand-400">
              <Spinner size="small" />
            </span>
          )}
        </form>
      </FormProvider>
      {results.length > 0 && (
        <ul className="mt-5 space-y-2">
          {results.map((server) => (
            <li key={server.id}>
              <Link
                to={paths.server(server.id)}
                onClick={onDismissed}
                className="flex items-center justify-between gap-4 rounded-lg border border-ink-700 bg-ink-900 px-4 py-3 transition-colors hover:border-brand-500/60 hover:bg-ink-800"
              >
                <span className="min-w-0">
                  <span className="block truncate text-sm font-medium text-ink-50">{server.name}</span>
                  <span className="block truncate font-mono text-xs text-ink-400">
                    {server.addresses.join(', ')}
                  </span>
                </span>
                <span className="shrink-0 rounded-md bg-ink-800 px-2 py-1 text-xs text-ink-300">
                  {server.node}
                </span>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </Modal>
  );
}

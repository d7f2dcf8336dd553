import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Input, Label } from '@/components/ui/input';
import { findUsers } from '@/features/admin-servers/api/admin-servers';
import { useDebouncedValue } from '@/hooks/use-debounced-value';

interface Owner {
  id: number;
  username: string;
  email: string;
}

/**
 * Finds a user by email or username as the admin types, and picks one as the server's owner; `current` starts it
 * on the owner a server has (its Details tab).
 */
export function OwnerPicker({
  onPick,
  error,
  current,
}: {
  onPick: (owner: Owner) => void;
  error?: string;
  current?: Owner | null | undefined;
}) {
  const { t } = useTranslation('admin');
  const [search, setSearch] = useState(current?.email ?? '');
  const [picked, setPicked] = useState<Owner | null>(current ?? null);
  const term = useDebouncedValue(search.trim(), 250);
  const { data: matches = [] } = useQuery({
    queryKey: ['admin', 'owner-search', term] as const,
    queryFn: ({ signal }) => findUsers(term, signal),
    enabled: term.length > 0 && picked === null,
  });
  return (
    <div className="sm:col-span-2">
      <Label htmlFor="owner-search">{t('servers.new.owner')}</Label>
      <Input
        id="owner-search"
        value={search}
        autoComplete="off"
        hasError={Boolean(error)}
        onChange={(event) => {
          setSearch(event.target.value);
          setPicked(null);
        }}
      />
      {picked ? (
        <p className="mt-1.5 text-xs text-emerald-300">
          {t('servers.new.owner_chosen', { username: picked.username, email: picked.email })}
        </p>
      ) : (
        <p className={error ? 'mt-1.5 text-xs text-red-400' : 'mt-1.5 text-xs text-ink-400'}>
          {error ?? t('servers.new.owner_hint')}
        </p>
      )}
      {!picked && term.length > 0 && (
        <ul
          className="mt-2 divide-y divide-ink-800 rounded-lg border border-ink-800"
          aria-label={t('servers.new.owner')}
        >
          {matches.length === 0 && (
            <li className="px-3 py-2 text-sm text-ink-400">{t('servers.new.owner_none')}</li>
          )}
          {matches.map((user) => (
            <li key={user.id}>
              <button
                type="button"
                className="w-full px-3 py-2 text-start text-sm text-ink-100 hover:bg-ink-800"
                onClick={() => {
                  setPicked(user);
                  setSearch(user.email);
                  onPick(user);
                }}
              >
                {user.username} <span className="text-ink-400">{user.email}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

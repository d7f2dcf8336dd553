import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { buttonClasses } from '@/components/ui/button';
import { getSignInProviders, oauthRedirectPath, type SignInProvider } from '@/features/oauth/api/oauth';
import { ProviderBadge } from '@/features/oauth/components/provider-badge';

/**
 * The sign-in page's provider buttons, one per enabled provider, each a full page navigation to the panel, which
 * sends the browser on to the provider. Nothing (not even the divider) while loading, when there are none, or
 * when the list cannot be read: the password form never waits for it. The sign-in pages have no query cache.
 */
export function ProviderSignInButtons() {
  const { t } = useTranslation('auth');
  const [providers, setProviders] = useState<SignInProvider[]>([]);

  useEffect(() => {
    // Left to finish when the page closes (a small, public read); its answer is then ignored.
    let open = true;
    getSignInProviders().then(
      (list) => open && setProviders(list),
      () => open && setProviders([]),
    );
    return () => {
      open = false;
    };
  }, []);

  if (providers.length === 0) return null;
  return (
    <div className="space-y-3">
      <div
        className="flex items-center gap-3 text-xs uppercase tracking-wider text-ink-500"
        aria-hidden="true"
      >
        <span className="h-px flex-1 bg-ink-800" />
        {t('sso.divider')}
        <span className="h-px flex-1 bg-ink-800" />
      </div>
      <ul className="space-y-2" aria-label={t('sso.providers_label')}>
        {providers.map((provider) => (
          <li key={provider.slug}>
            <a
              href={oauthRedirectPath(provider.slug)}
              className={buttonClasses('secondary', 'lg', 'w-full gap-3')}
            >
              <ProviderBadge name={provider.name} kind={provider.kind} />
              {t('sso.sign_in_with', { name: provider.name })}
            </a>
          </li>
        ))}
      </ul>
    </div>
  );
}

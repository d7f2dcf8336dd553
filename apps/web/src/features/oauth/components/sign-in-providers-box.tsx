import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { buttonClasses } from '@/components/ui/button';
import { ConfirmationModal } from '@/components/ui/confirmation-modal';
import { ContentBox } from '@/components/ui/content-box';
import { FlashMessageRender } from '@/components/ui/flash-message-render';
import {
  type OAuthLink,
  oauthLinksQueryOptions,
  oauthRedirectPath,
  ssoErrorFrom,
  ssoErrorParam,
  useUnlinkOAuthProvider,
} from '@/features/oauth/api/oauth';
import { ProviderBadge } from '@/features/oauth/components/provider-badge';
import { useSsoErrorText } from '@/features/oauth/components/sso-error-notice';
import { formatDate } from '@/lib/format-dates';
import { flashActions } from '@/stores/flash-store';

/** Errors of the account page's Sign-in Providers box (a failed link, an unlink the panel refused). */
export const oauthLinksFlashKey = 'account:oauth';

/** The account page's dates (spec §9: 'MMM do, yyyy HH:mm'), in the browser's time zone. */
const linkedFormat = 'MMM do, yyyy HH:mm';

const strong = <strong className="font-medium text-ink-100" />;

/**
 * The account page's sign-in providers: each enabled provider, linked (with the provider's email and when) and
 * Unlink, or Link (a full page navigation through the provider, back to /account). Shown only while at least one
 * provider is enabled, or to tell why a link failed (`/account?sso_error=<code>`).
 */
export function SignInProvidersBox({ className }: { className?: string }) {
  const { t } = useTranslation('account');
  const ssoErrorText = useSsoErrorText();
  const [search, setSearch] = useSearchParams();
  const links = useQuery(oauthLinksQueryOptions());
  const unlink = useUnlinkOAuthProvider();
  const [unlinking, setUnlinking] = useState<OAuthLink | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [linkFailed, setLinkFailed] = useState(false);

  // A failed link comes back as /account?sso_error=<code>: say why in the box, once (not again on a reload).
  const code = ssoErrorFrom(search);
  useEffect(() => {
    if (code === null) return;
    flashActions().clearFlashes(oauthLinksFlashKey);
    flashActions().addError({ key: oauthLinksFlashKey, message: ssoErrorText(code) });
    setLinkFailed(true);
    setSearch(
      (current) => {
        const next = new URLSearchParams(current);
        next.delete(ssoErrorParam);
        return next;
      },
      { replace: true, preventScrollReset: true },
    );
  }, [code, ssoErrorText, setSearch]);

  const handleUnlink = async () => {
    if (!unlinking) return;
    flashActions().clearFlashes(oauthLinksFlashKey);
    try {
      await unlink.mutateAsync(unlinking.slug);
      flashActions().addFlash({
        key: oauthLinksFlashKey,
        type: 'success',
        message: t('oauth.unlinked', { name: unlinking.name }),
      });
    } catch (error) {
      flashActions().clearAndAddHttpError({ key: oauthLinksFlashKey, error });
    }
    setConfirming(false);
  };

  const list = links.data ?? [];
  if (list.length === 0 && !linkFailed) return null;
  return (
    <ContentBox title={t('oauth.title')} className={className}>
      <div className="space-y-5">
        <FlashMessageRender byKey={oauthLinksFlashKey} />
        <p className="text-sm leading-relaxed text-ink-300">{t('oauth.intro')}</p>
        {list.length > 0 && (
          <ul className="space-y-2" aria-label={t('oauth.list_label')}>
            {list.map((link) => (
              <li
                key={link.slug}
                className="flex flex-wrap items-center gap-4 rounded-lg border border-ink-800 bg-ink-900 px-4 py-3"
              >
                <ProviderBadge name={link.name} kind={link.kind} />
                <div className="min-w-0 flex-1">
                  <p className="break-words text-sm font-medium text-ink-50">{link.name}</p>
                  <p className="mt-1 text-xs text-ink-400">
                    {link.linked
                      ? [
                          link.linkedAt
                            ? t('oauth.linked_at', { date: formatDate(link.linkedAt, linkedFormat) })
                            : t('oauth.linked'),
                          link.email,
                        ]
                          .filter(Boolean)
                          .join(' · ')
                      : t('oauth.not_linked')}
                  </p>
                </div>
                {link.linked ? (
                  <button
                    type="button"
                    aria-label={t('oauth.unlink_label', { name: link.name })}
                    onClick={() => {
                      setUnlinking(link);
                      setConfirming(true);
                    }}
                    className={buttonClasses('secondary', 'sm')}
                  >
                    {t('oauth.unlink')}
                  </button>
                ) : (
                  <a
                    href={oauthRedirectPath(link.slug, { link: true })}
                    aria-label={t('oauth.link_label', { name: link.name })}
                    className={buttonClasses('primary', 'sm')}
                  >
                    {t('oauth.link')}
                  </a>
                )}
              </li>
            ))}
          </ul>
        )}
      </div>
      <ConfirmationModal
        visible={confirming}
        onClose={() => setConfirming(false)}
        title={t('oauth.unlink_title')}
        confirmLabel={t('oauth.unlink')}
        cancelLabel={t('oauth.cancel')}
        onConfirm={() => void handleUnlink()}
        isLoading={unlink.isPending}
      >
        <Trans
          t={t}
          i18nKey="oauth.unlink_text"
          values={{ name: unlinking?.name ?? '' }}
          components={{ strong }}
        />
      </ConfirmationModal>
    </ContentBox>
  );
}

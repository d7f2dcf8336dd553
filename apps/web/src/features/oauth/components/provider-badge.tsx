import type { OAuthProviderKind } from '@aerie/shared/oauth/oauth-wire';
import clsx from 'clsx';

const kindStyles: Record<OAuthProviderKind, string> = {
  oidc: 'bg-brand-600 text-white',
  discord: 'bg-indigo-500 text-white',
  github: 'bg-ink-100 text-ink-900',
};

/** A provider's mark: its name's first letter on its kind's colour (no image is loaded from anywhere). */
export function ProviderBadge({
  name,
  kind,
  className,
}: {
  name: string;
  kind: OAuthProviderKind;
  className?: string;
}) {
  const letter = [...name.trim()][0]?.toUpperCase() ?? '?';
  return (
    <span
      aria-hidden="true"
      className={clsx(
        'inline-flex size-6 shrink-0 items-center justify-center rounded-md text-xs font-bold',
        kindStyles[kind] ?? kindStyles.oidc,
        className,
      )}
    >
      {letter}
    </span>
  );
}

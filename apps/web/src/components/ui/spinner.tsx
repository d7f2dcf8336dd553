import clsx from 'clsx';
import { useTranslation } from 'react-i18next';

export type SpinnerSize = 'small' | 'base' | 'large';

const sizes: Record<SpinnerSize, string> = {
  small: 'size-4 border-2',
  base: 'size-8 border-[3px]',
  large: 'size-14 border-4',
};

interface SpinnerProps {
  size?: SpinnerSize;
  className?: string;
  /** Spoken to screen readers; omit when the surrounding element already says what is loading. */
  label?: string;
}

export function Spinner({ size = 'base', className, label }: SpinnerProps) {
  return (
    <>
      <span
        aria-hidden="true"
        className={clsx(
          'inline-block shrink-0 animate-spin rounded-full border-current border-r-transparent opacity-80',
          sizes[size],
          className,
        )}
      />
      {label && (
        <span role="status" className="sr-only">
          {label}
        </span>
      )}
    </>
  );
}

/**
 * "Loading" in the page's language; English while the translations themselves are still loading (a spinner shows
 * then too, and must not wait for them).
 */
export function useLoadingLabel(): string {
  const { t, ready } = useTranslation('strings', { useSuspense: false });
  return ready ? t('loading') : 'Loading';
}

/** A centred spinner for a whole page or panel while its data loads. */
export function SpinnerBlock({ label }: { label?: string }) {
  const loading = useLoadingLabel();
  return (
    <div className="flex w-full justify-center py-12 text-brand-400">
      <Spinner size="large" label={label ?? loading} />
    </div>
  );
}

/** Covers its positioned parent and blocks it while work is in progress. */
export function SpinnerOverlay({ visible, label }: { visible: boolean; label?: string }) {
  const loading = useLoadingLabel();
  if (!visible) return null;
  return (
    <div className="absolute inset-0 z-10 flex items-center justify-center rounded-[inherit] bg-ink-950/70 text-brand-400 animate-fade-in">
      <Spinner size="large" label={label ?? loading} />
    </div>
  );
}

/** Shown while the app itself starts (translations, first route chunk). */
export function FullPageSpinner() {
  return (
    <div className="flex min-h-screen items-center justify-center text-brand-400">
      <Spinner size="large" />
    </div>
  );
}

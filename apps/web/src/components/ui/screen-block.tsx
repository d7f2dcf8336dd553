import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { ArrowLeftIcon, RefreshIcon } from '@/components/ui/icons';
import { NotFoundIllustration, ServerDownIllustration } from '@/components/ui/illustrations';
import { useDocumentTitle } from '@/hooks/use-document-title';

interface ScreenBlockProps {
  title: string;
  message: ReactNode;
  illustration: ReactNode;
  onBack?: () => void;
  backLabel?: string;
  onRetry?: () => void;
}

/** A whole-page notice with an illustration and optional back and retry buttons. */
export function ScreenBlock({ title, message, illustration, onBack, backLabel, onRetry }: ScreenBlockProps) {
  const { t } = useTranslation();
  useDocumentTitle(title);
  return (
    <div className="flex w-full justify-center px-4 py-12 animate-fade-in sm:py-20">
      <div className="w-full max-w-md rounded-2xl border border-ink-800 bg-ink-900/80 p-8 text-center shadow-xl shadow-black/30">
        <div className="mx-auto mb-6 w-48">{illustration}</div>
        <h1 className="text-3xl font-bold tracking-tight text-ink-50">{title}</h1>
        <p className="mt-3 text-sm leading-relaxed text-ink-300">{message}</p>
        {(onBack || onRetry) && (
          <div className="mt-8 flex flex-wrap justify-center gap-3">
            {onBack && (
              <Button variant="secondary" onClick={onBack}>
                <ArrowLeftIcon className="size-4" />
                {backLabel ?? t('actions.go_back')}
              </Button>
            )}
            {onRetry && (
              <Button onClick={onRetry}>
                <RefreshIcon className="size-4" />
                {t('actions.try_again')}
              </Button>
            )}
          </div>
        )}
      </div>
    </div>
  );
}

interface NotFoundPageProps {
  onBack?: () => void;
  backLabel?: string;
}

/** Title 404 with 'The requested resource was not found.' */
export function NotFoundPage({ onBack, backLabel }: NotFoundPageProps) {
  const { t } = useTranslation();
  return (
    <ScreenBlock
      title={t('not_found.title')}
      message={t('not_found.message')}
      illustration={<NotFoundIllustration />}
      onBack={onBack}
      backLabel={backLabel}
    />
  );
}

interface ErrorPageProps {
  message: ReactNode;
  onBack?: () => void;
  onRetry?: () => void;
}

/** Title 'Something went wrong' with the reason and optional back and retry buttons. */
export function ErrorPage({ message, onBack, onRetry }: ErrorPageProps) {
  const { t } = useTranslation();
  return (
    <ScreenBlock
      title={t('error.title')}
      message={message}
      illustration={<ServerDownIllustration />}
      onBack={onBack}
      onRetry={onRetry}
    />
  );
}

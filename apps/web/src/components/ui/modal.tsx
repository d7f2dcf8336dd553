import { limits } from '@aerie/shared/limits';
import clsx from 'clsx';
import {
  type KeyboardEvent as ReactKeyboardEvent,
  type ReactNode,
  useEffect,
  useId,
  useRef,
  useState,
} from 'react';
import { createPortal } from 'react-dom';
import { useTranslation } from 'react-i18next';
import { CloseIcon } from '@/components/ui/icons';
import { SpinnerOverlay } from '@/components/ui/spinner';
import { useFadeTransition } from '@/hooks/use-fade-transition';

export interface ModalProps {
  visible: boolean;
  /** Called after the modal has faded out, whether the user closed it or `visible` went false. */
  onDismissed: () => void;
  title?: string;
  children: ReactNode;
  /** Blocks the modal (and every way of closing it) while work is in progress. */
  showSpinnerOverlay?: boolean;
  /** False hides the close icon and ignores Escape and backdrop clicks: only the content can close it. */
  dismissable?: boolean;
  closeOnEscape?: boolean;
  closeOnBackground?: boolean;
  size?: 'sm' | 'md' | 'lg';
}

const widths = { sm: 'max-w-md', md: 'max-w-xl', lg: 'max-w-3xl' } as const;

const focusableSelector =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

export function Modal({
  visible,
  onDismissed,
  title,
  children,
  showSpinnerOverlay = false,
  dismissable = true,
  closeOnEscape = true,
  closeOnBackground = true,
  size = 'md',
}: ModalProps) {
  const { t } = useTranslation('strings');
  const [open, setOpen] = useState(visible);
  const { mounted, visible: shown } = useFadeTransition(open, limits.fadeMs, onDismissed);
  const dialog = useRef<HTMLDivElement>(null);
  const titleId = useId();
  const canClose = dismissable && !showSpinnerOverlay;

  useEffect(() => setOpen(visible), [visible]);

  useEffect(() => {
    if (!open || !canClose || !closeOnEscape) return;
    const handleKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setOpen(false);
    };
    document.addEventListener('keydown', handleKeyDown);
    return () => document.removeEventListener('keydown', handleKeyDown);
  }, [open, canClose, closeOnEscape]);

  // Remember what had focus before the dialog opened: read while rendering the opening, because a child's
  // autoFocus takes focus before any effect of the dialog runs.
  const returnFocusTo = useRef<HTMLElement | null>(null);
  if (open && returnFocusTo.current === null && document.activeElement instanceof HTMLElement) {
    returnFocusTo.current = document.activeElement;
  }

  // Move focus into the dialog (unless a field inside already took it) and give it back when it goes away.
  useEffect(() => {
    if (!mounted) return;
    if (!dialog.current?.contains(document.activeElement)) dialog.current?.focus();
    return () => {
      returnFocusTo.current?.focus();
      returnFocusTo.current = null;
    };
  }, [mounted]);

  // Keep Tab and Shift+Tab inside the dialog while it is open.
  const handleTrapFocus = (event: ReactKeyboardEvent<HTMLDivElement>) => {
    if (event.key !== 'Tab' || !dialog.current) return;
    const focusable = [...dialog.current.querySelectorAll<HTMLElement>(focusableSelector)];
    const first = focusable[0];
    const last = focusable[focusable.length - 1];
    if (!first || !last) {
      event.preventDefault();
      return;
    }
    const active = document.activeElement;
    if (event.shiftKey && (active === first || active === dialog.current)) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && active === last) {
      event.preventDefault();
      first.focus();
    }
  };

  if (!mounted) return null;

  return createPortal(
    // biome-ignore lint/a11y/noStaticElementInteractions: a backdrop click is a mouse shortcut; Escape and the close button cover the keyboard.
    // biome-ignore lint/a11y/useKeyWithClickEvents: Escape is handled on the document.
    <div
      data-testid="modal-backdrop"
      className={clsx(
        'fixed inset-0 z-50 flex items-start justify-center overflow-y-auto bg-ink-950/80 p-4 backdrop-blur-sm',
        'transition-opacity ease-out sm:items-center sm:p-8',
        shown ? 'opacity-100' : 'opacity-0',
      )}
      style={{ transitionDuration: `${limits.fadeMs}ms` }}
      onClick={(event) => {
        if (event.target === event.currentTarget && canClose && closeOnBackground) setOpen(false);
      }}
    >
      <div
        ref={dialog}
        role="dialog"
        aria-modal="true"
        aria-labelledby={title ? titleId : undefined}
        tabIndex={-1}
        onKeyDown={handleTrapFocus}
        className={clsx(
          'relative my-auto w-full rounded-xl border border-ink-700 bg-ink-850 p-6 shadow-2xl shadow-black/50 focus:outline-none',
          widths[size],
        )}
      >
        {dismissable && (
          <button
            type="button"
            aria-label={t('actions.close')}
            disabled={showSpinnerOverlay}
            onClick={() => setOpen(false)}
            className="absolute top-3 inset-e-3 rounded-md p-1.5 text-ink-400 transition-colors hover:bg-ink-700 hover:text-ink-50 disabled:opacity-40"
          >
            <CloseIcon className="size-5" />
          </button>
        )}
        {title && (
          <h2 id={titleId} className="mb-4 pe-8 text-lg font-semibold text-ink-50">
            {title}
          </h2>
        )}
        {children}
        <SpinnerOverlay visible={showSpinnerOverlay} />
      </div>
    </div>,
    document.body,
  );
}

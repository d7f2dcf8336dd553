import {
  type KeyboardEvent as ReactKeyboardEvent,
  useCallback,
  useEffect,
  useId,
  useRef,
  useState,
} from 'react';

/** Which item takes focus when the menu opens. */
type Opening = 'first' | 'last';

/**
 * A menu button and its pop-up menu, as the WAI-ARIA menu-button pattern has them: opening (click, Enter, Space or
 * ArrowDown; ArrowUp opens at the last item) focuses an item; ArrowDown/ArrowUp move through the items (wrapping),
 * Home/End jump to the first/last, a letter to the next item starting with it; Escape closes and gives focus back
 * to the button, Tab closes and moves on from the button; a press outside closes. Choosing an item gives focus back to the button
 * first, so a dialog the item opens returns focus there when it closes (not to an item that no longer exists).
 */
export function useMenu(itemCount: number) {
  const [opening, setOpening] = useState<Opening | null>(null);
  const open = opening !== null;
  const root = useRef<HTMLDivElement>(null);
  const trigger = useRef<HTMLButtonElement>(null);
  const items = useRef<(HTMLElement | null)[]>([]);
  const triggerId = useId();
  const menuId = useId();

  const focusItem = useCallback((index: number) => {
    const list = items.current.filter((item): item is HTMLElement => item !== null);
    if (list.length === 0) return;
    list[((index % list.length) + list.length) % list.length]?.focus();
  }, []);

  const close = useCallback((returnFocus: boolean) => {
    setOpening(null);
    if (returnFocus) trigger.current?.focus();
  }, []);

  // Focus the first (or last) item once the menu is on the page.
  useEffect(() => {
    if (opening === null) return;
    focusItem(opening === 'first' ? 0 : itemCount - 1);
  }, [opening, itemCount, focusItem]);

  useEffect(() => {
    if (!open) return;
    const pressOutside = (event: MouseEvent) => {
      if (!root.current?.contains(event.target as Node)) close(false);
    };
    document.addEventListener('mousedown', pressOutside);
    return () => document.removeEventListener('mousedown', pressOutside);
  }, [open, close]);

  const currentIndex = () =>
    items.current.findIndex((item) => item !== null && item === document.activeElement);

  const triggerProps = {
    ref: trigger,
    id: triggerId,
    'aria-haspopup': 'menu' as const,
    'aria-expanded': open,
    'aria-controls': open ? menuId : undefined,
    onClick: () => (open ? close(true) : setOpening('first')),
    onKeyDown: (event: ReactKeyboardEvent<HTMLButtonElement>) => {
      if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
        event.preventDefault();
        setOpening(event.key === 'ArrowDown' ? 'first' : 'last');
      }
    },
  };

  const menuProps = {
    id: menuId,
    role: 'menu' as const,
    'aria-labelledby': triggerId,
    onKeyDown: (event: ReactKeyboardEvent<HTMLElement>) => {
      const index = currentIndex();
      switch (event.key) {
        case 'ArrowDown':
          event.preventDefault();
          focusItem(index + 1);
          break;
        case 'ArrowUp':
          event.preventDefault();
          focusItem(index - 1);
          break;
        case 'Home':
          event.preventDefault();
          focusItem(0);
          break;
        case 'End':
          event.preventDefault();
          focusItem(itemCount - 1);
          break;
        case 'Escape':
          event.preventDefault();
          event.stopPropagation();
          close(true);
          break;
        case 'Tab':
          // From the button, the browser's own Tab (or Shift+Tab) moves on to the next (previous) element.
          close(true);
          break;
        default:
          if (event.key.length === 1 && /\S/.test(event.key)) {
            const key = event.key.toLowerCase();
            const list = items.current;
            for (let step = 1; step <= list.length; step += 1) {
              const next = (index + step) % list.length;
              if (list[next]?.textContent?.trim().toLowerCase().startsWith(key)) {
                focusItem(next);
                break;
              }
            }
          }
      }
    },
  };

  /** Props of item `index`: focusable by script only (the arrows move between them), chosen by click or Enter. */
  const itemProps = (index: number, onChoose: () => void) => ({
    ref: (element: HTMLElement | null) => {
      items.current[index] = element;
    },
    role: 'menuitem' as const,
    tabIndex: -1,
    onClick: () => {
      close(true);
      onChoose();
    },
  });

  return { open, root, triggerProps, menuProps, itemProps, close };
}

import { create } from 'zustand';
import { errorToMessage, isTwoFactorRequired } from '@/lib/api-client';

export type FlashType = 'error' | 'info' | 'success' | 'warning';

/** A message box shown above a form or page; `key` says which area shows it (spec §8 lists the keys). */
export interface FlashMessage {
  id: number;
  key?: string;
  type: FlashType;
  title?: string;
  message: string;
}

export type NewFlash = Omit<FlashMessage, 'id'>;

interface FlashState {
  items: FlashMessage[];
  addFlash: (flash: NewFlash) => void;
  addError: (error: { key?: string; message: string; title?: string }) => void;
  /**
   * Replaces every flash with the error's message under `key` (title 'Error'); no error just clears them. A
   * two-factor refusal only clears them: the redirect to /account and its '2-Factor Required' banner answer it.
   */
  clearAndAddHttpError: (options: { key?: string; error?: unknown }) => void;
  /** Clears the flashes of one key, or all of them. */
  clearFlashes: (key?: string) => void;
}

let nextId = 1;

export const useFlashStore = create<FlashState>()((set) => ({
  items: [],
  addFlash: (flash) => set((state) => ({ items: [...state.items, { ...flash, id: nextId++ }] })),
  addError: ({ key, message, title }) =>
    set((state) => ({ items: [...state.items, { id: nextId++, key, type: 'error', title, message }] })),
  clearAndAddHttpError: ({ key, error }) =>
    set({
      items:
        error && !isTwoFactorRequired(error)
          ? [{ id: nextId++, key, type: 'error', message: errorToMessage(error) }]
          : [],
    }),
  clearFlashes: (key) =>
    set((state) => ({ items: key === undefined ? [] : state.items.filter((item) => item.key !== key) })),
}));

/** Actions for components, without subscribing them to the list. */
export const flashActions = () => useFlashStore.getState();

import { create } from 'zustand';

/**
 * The top progress bar's model (spec §3 "Progress indicator"): `continuous` while requests are running,
 * `progress` the visible percentage (undefined = hidden). The bar component drives the timing.
 */
interface ProgressState {
  continuous: boolean;
  progress?: number;
  /** Requests still running; the bar completes only when the last one ends. */
  pending: number;
  startContinuous: () => void;
  setComplete: () => void;
  setProgress: (progress: number | undefined) => void;
}

export const useProgressStore = create<ProgressState>()((set) => ({
  continuous: false,
  progress: undefined,
  pending: 0,
  startContinuous: () => set((state) => ({ pending: state.pending + 1, continuous: true })),
  setComplete: () =>
    set((state) => {
      const pending = Math.max(0, state.pending - 1);
      if (pending > 0) return { pending };
      return { pending, continuous: false, progress: 100 };
    }),
  setProgress: (progress) => set({ progress }),
}));

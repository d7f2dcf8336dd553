import { useEffect } from 'react';
import { useLoadingLabel } from '@/components/ui/spinner';
import { useProgressStore } from '@/stores/progress-store';

const randomInt = (low: number, high: number) => low + Math.floor(Math.random() * (high - low + 1));

/** Timing of the top bar (spec §4 "Progress bar"). */
export const progressTiming = {
  startMin: 20,
  startMax: 30,
  stepMin: 1,
  stepMax: 5,
  stepMs: 500,
  cap: 90,
  clearMs: 500,
};

/**
 * The thin bar fixed at the top of every page. While requests run it starts at 20–30 %, creeps up by 1–5 every
 * 500 ms and stops at 90; when they end it jumps to 100 and disappears 500 ms later.
 */
export function ProgressBar() {
  const loading = useLoadingLabel();
  const continuous = useProgressStore((state) => state.continuous);
  const progress = useProgressStore((state) => state.progress);
  const setProgress = useProgressStore((state) => state.setProgress);

  useEffect(() => {
    // A new request while the last one's 100 % is still showing starts the bar over.
    if (continuous && (!progress || progress >= 100))
      setProgress(randomInt(progressTiming.startMin, progressTiming.startMax));
  }, [continuous, progress, setProgress]);

  useEffect(() => {
    if (!continuous || !progress || progress >= progressTiming.cap) return;
    const timer = setTimeout(
      () =>
        setProgress(
          Math.min(progressTiming.cap, progress + randomInt(progressTiming.stepMin, progressTiming.stepMax)),
        ),
      progressTiming.stepMs,
    );
    return () => clearTimeout(timer);
  }, [continuous, progress, setProgress]);

  useEffect(() => {
    if (continuous || progress === undefined || progress < 100) return;
    const timer = setTimeout(() => setProgress(undefined), progressTiming.clearMs);
    return () => clearTimeout(timer);
  }, [continuous, progress, setProgress]);

  if (progress === undefined) return null;
  return (
    <div className="pointer-events-none fixed inset-x-0 top-0 z-[60] h-0.5">
      <div
        role="progressbar"
        aria-label={loading}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={progress}
        className="h-full bg-gradient-to-r from-brand-400 to-brand-300 shadow-[0_0_8px] shadow-brand-400/70 transition-[width] duration-200 ease-out"
        style={{ width: `${progress}%` }}
      />
    </div>
  );
}

import { act, render, screen } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ProgressBar } from '@/components/ui/progress-bar';
import { useProgressStore } from '@/stores/progress-store';

const shown = () => Number(screen.getByRole('progressbar').getAttribute('aria-valuenow'));
const advance = (ms: number) => act(() => vi.advanceTimersByTime(ms));
const start = () => act(() => useProgressStore.getState().startContinuous());
const complete = () => act(() => useProgressStore.getState().setComplete());

describe('top progress bar', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });

  it('is hidden until a request starts, then starts between 20 and 30 percent', () => {
    render(<ProgressBar />);
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument();
    start();
    expect(shown()).toBeGreaterThanOrEqual(20);
    expect(shown()).toBeLessThanOrEqual(30);
  });

  it('rises by 1 to 5 every 500 ms and never passes 90 while the request runs', () => {
    render(<ProgressBar />);
    start();
    let previous = shown();
    advance(499);
    expect(shown()).toBe(previous);
    for (let step = 0; step < 40; step++) {
      advance(500);
      const now = shown();
      if (previous < 90) {
        expect(now - previous).toBeGreaterThanOrEqual(Math.min(1, 90 - previous));
        expect(now - previous).toBeLessThanOrEqual(5);
      }
      expect(now).toBeLessThanOrEqual(90);
      previous = now;
    }
    expect(shown()).toBe(90);
  });

  it('jumps to 100 when the request ends and clears 500 ms later', () => {
    render(<ProgressBar />);
    start();
    advance(1500);
    complete();
    expect(shown()).toBe(100);
    advance(499);
    expect(shown()).toBe(100);
    advance(1);
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument();
  });

  it('completes only when the last of several requests ends', () => {
    render(<ProgressBar />);
    start();
    start();
    complete();
    expect(shown()).toBeLessThan(100);
    complete();
    expect(shown()).toBe(100);
  });

  it('starts over when a new request begins while 100 % is still showing', () => {
    render(<ProgressBar />);
    start();
    complete();
    start();
    expect(shown()).toBeGreaterThanOrEqual(20);
    expect(shown()).toBeLessThanOrEqual(30);
  });
});

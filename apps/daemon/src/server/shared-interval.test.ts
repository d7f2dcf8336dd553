import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { everyInterval } from './shared-interval';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('everyInterval', () => {
  it('drives every callback of one period from one timer, until the last one stops', () => {
    const calls: string[] = [];
    const stopA = everyInterval(1000, () => calls.push('a'));
    const stopB = everyInterval(1000, () => calls.push('b'));
    const stopC = everyInterval(250, () => calls.push('c'));
    expect(vi.getTimerCount()).toBe(2);
    vi.advanceTimersByTime(1000);
    expect(calls.sort()).toEqual(['a', 'b', 'c', 'c', 'c', 'c']);
    stopA();
    stopC();
    expect(vi.getTimerCount()).toBe(1);
    calls.length = 0;
    vi.advanceTimersByTime(1000);
    expect(calls).toEqual(['b']);
    stopB();
    expect(vi.getTimerCount()).toBe(0);
  });

  it('stops the same function registered twice one registration at a time', () => {
    let calls = 0;
    const tick = () => {
      calls += 1;
    };
    const stopFirst = everyInterval(1000, tick);
    const stopSecond = everyInterval(1000, tick);
    stopFirst();
    vi.advanceTimersByTime(1000);
    expect(calls).toBe(1);
    stopSecond();
    stopSecond();
    expect(vi.getTimerCount()).toBe(0);
  });
});

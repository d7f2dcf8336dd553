import { describe, expect, it } from 'vitest';
import { formatUptime } from '@/utils/format-duration';

describe('formatUptime', () => {
  it.each([
    [0, '0h 0m 0s'],
    [999, '0h 0m 0s'],
    [65_000, '0h 1m 5s'],
    [3_725_000, '1h 2m 5s'],
    [90_061_000, '1d 1h 1m'],
    [-5, '0h 0m 0s'],
  ])('%i ms reads %s', (ms, text) => {
    expect(formatUptime(ms)).toBe(text);
  });
});

import { afterEach, describe, expect, it } from 'vitest';
import { formatDate, formatRelative } from '@/lib/format-dates';
import { prepareFormatLanguage } from '@/lib/format-language';
import { formatBytes } from '@/utils/format-bytes';
import { formatPercent } from '@/utils/format-percent';

afterEach(() => prepareFormatLanguage('en'));

const at = new Date(2026, 0, 5, 14, 7, 9);

describe('formats in the page language', () => {
  it("keeps the spec's English formats", async () => {
    await prepareFormatLanguage('en');
    expect(formatBytes(1536)).toBe('1.5 kB');
    expect(formatBytes(0)).toBe('0 Bytes');
    expect(formatPercent(12.5)).toBe('12.50 %');
    expect(formatDate(at, 'MMM do, yyyy HH:mm')).toBe('Jan 5th, 2026 14:07');
    expect(formatRelative(new Date(Date.now() - 5 * 60_000))).toBe('5 minutes ago');
  });

  it('writes German numbers, sizes, dates, and relative times', async () => {
    await prepareFormatLanguage('de');
    expect(formatBytes(1536)).toBe('1,5 kB');
    expect(formatBytes(3 * 1024 ** 3)).toBe('3\u00a0GB');
    expect(formatPercent(12.5)).toBe('12,50\u00a0%');
    expect(formatDate(at, 'MMM do, yyyy HH:mm')).toBe('5. Jan. 2026 14:07');
    expect(formatDate(at, 'MMM do, yyyy H:mm:ss')).toBe('5. Jan. 2026 14:07:09');
    expect(formatRelative(new Date(Date.now() - 5 * 60_000))).toBe('vor 5 Minuten');
  });

  it('writes French units and Arabic digits as those languages do', async () => {
    await prepareFormatLanguage('fr');
    expect(formatBytes(1536)).toBe('1,5\u202fko');
    await prepareFormatLanguage('ar');
    expect(formatRelative(new Date(Date.now() - 5 * 60_000))).toMatch(/دقائق/);
  });
});

import { describe, expect, it } from 'vitest';
import { formatBytes, megabytesToBytes } from '@/utils/format-bytes';

describe('formatBytes', () => {
  it.each([
    [0, '0 Bytes'],
    [0.4, '0 Bytes'],
    [-5, '0 Bytes'],
    [1, '1 Bytes'],
    [1023, '1023 Bytes'],
    [1024, '1 kB'],
    [1536, '1.5 kB'],
    [megabytesToBytes(512), '512 MB'],
    [megabytesToBytes(1024), '1 GB'],
    [1234567890, '1.15 GB'],
    [1024 ** 4 * 3, '3 TB'],
    [1024 ** 5, '1024 TB'],
  ])('%d bytes → %s', (bytes, text) => {
    expect(formatBytes(bytes)).toBe(text);
  });

  it('honours the number of decimals', () => {
    expect(formatBytes(1234567890, 0)).toBe('1 GB');
    expect(formatBytes(1234567890, 3)).toBe('1.15 GB');
    expect(formatBytes(1300000000, 3)).toBe('1.211 GB');
  });
});

import { describe, expect, it } from 'vitest';
import { randomToken } from './tokens';

describe('randomToken', () => {
  it('gives distinct URL-safe tokens of the asked entropy, across refills of its pool', () => {
    // 18 bytes × 1,000 tokens is several refills of the 4 KiB pool.
    const tokens = Array.from({ length: 1000 }, () => randomToken(18));
    expect(new Set(tokens).size).toBe(1000);
    for (const token of tokens) expect(token).toMatch(/^[A-Za-z0-9_-]{24}$/);
    expect(randomToken()).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('serves a token larger than its pool straight from the CSPRNG', () => {
    expect(Buffer.from(randomToken(5000), 'base64url')).toHaveLength(5000);
  });
});

import { describe, expect, it } from 'vitest';
import { ConsoleRing } from './console-ring';

describe('ConsoleRing', () => {
  it('numbers lines from 1 and gives back those after a number, oldest first', () => {
    const ring = new ConsoleRing({ maxLines: 10, maxBytes: 1000 });
    for (const text of ['a', 'b', 'c']) ring.push(text);
    expect(ring.last).toBe(3);
    expect(ring.after(0)).toEqual([
      { n: 1, s: 'a' },
      { n: 2, s: 'b' },
      { n: 3, s: 'c' },
    ]);
    expect(ring.after(2)).toEqual([{ n: 3, s: 'c' }]);
    expect(ring.after(3)).toEqual([]);
  });

  it('keeps at most maxLines lines and maxBytes characters, dropping the oldest', () => {
    const byLines = new ConsoleRing({ maxLines: 3, maxBytes: 1000 });
    for (let index = 1; index <= 10_000; index += 1) byLines.push(`line ${index}`);
    expect(byLines.after(0).map((line) => line.n)).toEqual([9998, 9999, 10_000]);
    // A daemon that last saw line 5 gets what is left: nothing in between is invented.
    expect(byLines.after(5).map((line) => line.n)).toEqual([9998, 9999, 10_000]);
    const byBytes = new ConsoleRing({ maxLines: 100, maxBytes: 25 });
    for (let index = 0; index < 10; index += 1) byBytes.push('x'.repeat(10));
    expect(byBytes.after(0)).toHaveLength(2);
  });
});

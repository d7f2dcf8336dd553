import { describe, expect, it } from 'vitest';
import { pageWindow } from '@/components/ui/pagination';

describe('pageWindow', () => {
  it.each([
    [1, 1, [1]],
    [1, 3, [1, 2, 3]],
    [1, 20, [1, 2, 3, 4, 5, 6]],
    [2, 20, [1, 2, 3, 4, 5, 6, 7]],
    [3, 20, [1, 2, 3, 4, 5, 6, 7, 8]],
    [10, 20, [8, 9, 10, 11, 12, 13, 14, 15]],
    [19, 20, [17, 18, 19, 20]],
    [20, 20, [18, 19, 20]],
  ])('page %d of %d → %j', (current, total, pages) => {
    expect(pageWindow(current, total)).toEqual(pages);
  });
});

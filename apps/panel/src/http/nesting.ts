interface Pending {
  value: unknown;
  depth: number;
  key: string;
  parent: Pending | null;
}

/**
 * The keys, from the top, down to the first object or array found more than `limit` levels below the top (the top
 * is level 0), or null when none is. Walked with a list, never recursion, and linear in the body's size, so a
 * megabyte of `[[[[…` cannot overflow the stack here.
 */
export function pathPastDepth(value: unknown, limit: number): string[] | null {
  if (typeof value !== 'object' || value === null) return null;
  const pending: Pending[] = [{ value, depth: 0, key: '', parent: null }];
  for (let entry = pending.pop(); entry; entry = pending.pop()) {
    if (entry.depth > limit) {
      const path: string[] = [];
      for (let at: Pending | null = entry; at?.parent; at = at.parent) path.unshift(at.key);
      return path;
    }
    for (const [key, child] of Object.entries(entry.value as object)) {
      if (typeof child === 'object' && child !== null)
        pending.push({ value: child, depth: entry.depth + 1, key, parent: entry });
    }
  }
  return null;
}

import { WILDCARD_PERMISSION } from './permissions';

/**
 * The spec's permission matcher (section 6), shared by the web app and the panel:
 * - `*` as the FIRST held entry grants everything (a `*` further down grants nothing by itself);
 * - a wanted `x.*` is met by any held permission that starts with `x.` (`file.*` by `file.read`);
 * - anything else needs an exact match.
 */
export function hasPermission(held: readonly string[], wanted: string): boolean {
  if (held[0] === WILDCARD_PERMISSION) return true;
  if (wanted.endsWith('.*')) {
    // Keep the dot: `file.*` must not be met by a permission of some `files` category.
    const prefix = wanted.slice(0, -1);
    return held.some((permission) => permission.startsWith(prefix));
  }
  return held.includes(wanted);
}

/** True when every wanted permission is held (and for an empty list). */
export const canAll = (held: readonly string[], wanted: readonly string[]): boolean =>
  wanted.every((permission) => hasPermission(held, permission));

/** True when at least one wanted permission is held (false for an empty list). */
export const canAny = (held: readonly string[], wanted: readonly string[]): boolean =>
  wanted.some((permission) => hasPermission(held, permission));

const units = ['Bytes', 'kB', 'MB', 'GB', 'TB'] as const;

/** Sizes in 1024 steps with up to two decimals (spec §9): 1536 → '1.5 kB', 0 → '0 Bytes'. */
export function formatBytes(bytes: number, decimals = 2): string {
  if (!Number.isFinite(bytes) || bytes < 1) return '0 Bytes';
  const exponent = Math.min(Math.floor(Math.log(bytes) / Math.log(1024)), units.length - 1);
  // Number() drops the trailing zeros toFixed leaves ('1.50' → 1.5).
  const value = Number((bytes / 1024 ** exponent).toFixed(Math.max(0, Math.floor(decimals))));
  return `${value} ${units[exponent]}`;
}

/** Limits are stored in megabytes (MiB). */
export const megabytesToBytes = (megabytes: number): number => megabytes * 1024 * 1024;

const triplet = (digit: number) => `${digit & 4 ? 'r' : '-'}${digit & 2 ? 'w' : '-'}${digit & 1 ? 'x' : '-'}`;

/** The ten-character listing of an octal mode: ('755', false) → 'drwxr-xr-x'. */
export function modeString(octal: string, isFile: boolean): string {
  const digits = octal.padStart(3, '0').slice(-3).split('').map(Number);
  return `${isFile ? '-' : 'd'}${digits.map(triplet).join('')}`;
}

/** Three or four octal digits, as chmod takes them. */
export const isOctalMode = (value: string): boolean => /^[0-7]{3,4}$/.test(value.trim());

import { constants } from 'node:fs';
import { FilesystemError } from './filesystem-error';

const { S_IFMT, S_IFDIR, S_IFLNK, S_IFIFO, S_IFSOCK, S_IFCHR, S_IFBLK } = constants;

const TYPE_CHAR: Record<number, string> = {
  [S_IFDIR]: 'd',
  [S_IFLNK]: 'l',
  [S_IFIFO]: 'p',
  [S_IFSOCK]: 's',
  [S_IFCHR]: 'c',
  [S_IFBLK]: 'b',
};

/** Ten characters as `ls -l` prints them: type, then rwx three times (s/S and t/T for the special bits). */
export function modeString(mode: number): string {
  const type = TYPE_CHAR[mode & S_IFMT] ?? '-';
  const triplet = (shift: number, special: boolean, specialChar: string): string => {
    const bits = (mode >> shift) & 0o7;
    const execute = bits & 0o1;
    const x = special ? (execute ? specialChar : specialChar.toUpperCase()) : execute ? 'x' : '-';
    return `${bits & 0o4 ? 'r' : '-'}${bits & 0o2 ? 'w' : '-'}${x}`;
  };
  return (
    type +
    triplet(6, (mode & 0o4000) !== 0, 's') +
    triplet(3, (mode & 0o2000) !== 0, 's') +
    triplet(0, (mode & 0o1000) !== 0, 't')
  );
}

/** Wings' `mode_bits`: the permission bits in octal, e.g. "644". */
export function modeBits(mode: number): string {
  return (mode & 0o777).toString(8);
}

/**
 * A chmod request's mode: octal digits as the panel sends them ("755", "0644"), or the same digits as a JSON
 * number (755). Anything else, or beyond 7777, is refused. Only the 0777 bits are kept, as Wings does: setuid,
 * setgid and sticky bits on a game's files serve nobody but an attacker.
 */
export function parseMode(input: unknown): number {
  const text = typeof input === 'number' && Number.isInteger(input) ? String(input) : input;
  if (typeof text !== 'string' || !/^[0-7]{1,4}$/.test(text)) {
    throw new FilesystemError('EINVALID', `"${String(input)}" is not a valid file mode.`);
  }
  return Number.parseInt(text, 8) & 0o777;
}

import { FilesystemError } from './filesystem-error';

/**
 * A user path as the list of names below the server root. A leading `/` means the root; `.` and empty parts are
 * dropped; `..` goes up one name and may never go above the root (Wings: "bad path resolution"), so `../x` and
 * `a/../../x` are refused rather than quietly clamped to the root.
 */
export function pathComponents(userPath: string): string[] {
  if (typeof userPath !== 'string') throw new FilesystemError('EINVALID', 'A path must be provided.');
  if (userPath.includes('\0')) throw new FilesystemError('EINVALID', 'A path may not contain a NUL byte.');
  const components: string[] = [];
  for (const part of userPath.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (components.pop() === undefined) throw new FilesystemError('EOUTSIDE');
      continue;
    }
    components.push(part);
  }
  return components;
}

/** `name` inside `directory`, both user paths (Wings joins root and each file name, then cleans the result). */
export function joinComponents(directory: string, name: string): string[] {
  if (typeof name !== 'string') throw new FilesystemError('EINVALID', 'A path must be provided.');
  return pathComponents(`${directory}/${name}`);
}

/** The user-facing form of a path: `/a/b`. */
export function displayPath(components: readonly string[]): string {
  return `/${components.join('/')}`;
}

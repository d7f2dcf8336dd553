/** Directory and file paths of the file manager: always absolute, '/' is /home/container. */

/** Joins a directory and a name: ('/a', 'b') → '/a/b', ('/', 'b') → '/b'. */
export const joinPath = (directory: string, name: string): string =>
  `${directory.replace(/\/+$/, '')}/${name.replace(/^\/+/, '')}`;

/** Normalises a hash or user path to '/a/b' (no trailing slash, '/' for the root). */
export function normalizeDirectory(path: string): string {
  const parts = path.split('/').filter((part) => part !== '' && part !== '.');
  return `/${parts.join('/')}`;
}

/** The directory a file sits in: '/a/b.txt' → '/a'. */
export const dirname = (path: string): string => normalizeDirectory(path.split('/').slice(0, -1).join('/'));

/** The URL hash holds the path with each segment encoded, so names with '#' or '%' survive. */
export const encodePathHash = (path: string): string =>
  normalizeDirectory(path)
    .split('/')
    .map((part) => encodeURIComponent(part))
    .join('/');

export function decodePathHash(hash: string): string {
  const raw = hash.replace(/^#/, '');
  try {
    return normalizeDirectory(
      raw
        .split('/')
        .map((part) => decodeURIComponent(part))
        .join('/'),
    );
  } catch {
    return normalizeDirectory(raw);
  }
}

/** Crumbs after home/container: each names a segment and the directory it opens. */
export function breadcrumbs(directory: string): { name: string; path: string }[] {
  const parts = normalizeDirectory(directory).split('/').filter(Boolean);
  return parts.map((name, index) => ({ name, path: `/${parts.slice(0, index + 1).join('/')}` }));
}

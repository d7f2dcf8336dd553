/**
 * Full page loads go through this object so the panel renders a fresh shell (with the new session's user and
 * CSRF token). Tests watch it because jsdom cannot navigate.
 */
export const browser = {
  loadPage(url: string): void {
    window.location.assign(url);
  },
  reload(): void {
    window.location.reload();
  },
};

/**
 * Only same-origin paths are followed after sign-in; anything else (e.g. '//evil.example', 'https://…', '/\\evil')
 * goes to `fallback`. The path is read the way the browser will read it (it drops tabs and newlines and takes '\\'
 * for '/', so '/\t/evil' would be '//evil'), and only a result on this origin is kept.
 */
export function safeLocalPath(url: string | null | undefined, fallback = '/'): string {
  if (typeof url !== 'string' || !url.startsWith('/') || url.startsWith('//') || url.startsWith('/\\')) {
    return fallback;
  }
  const origin = window.location.origin;
  let parsed: URL;
  try {
    parsed = new URL(url, origin);
  } catch {
    return fallback;
  }
  if (parsed.origin !== origin) return fallback;
  return `${parsed.pathname}${parsed.search}${parsed.hash}`;
}

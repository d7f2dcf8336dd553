/**
 * Full page loads go through this object so the panel renders a fresh shell (with the new session's user and
 * CSRF token). Tests watch it because jsdom cannot navigate.
 */
export const browser = {
  loadPage(url: string): void {
    window.location.assign(url);
  },
};

/** Only same-origin paths are followed after sign-in; anything else (e.g. '//evil.example') goes home. */
export function safeLocalPath(url: string | null | undefined, fallback = '/'): string {
  if (!url?.startsWith('/') || url.startsWith('//') || url.startsWith('/\\')) return fallback;
  return url;
}

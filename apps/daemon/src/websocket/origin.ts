/** `https://panel.example.com` for any URL of that site (path, trailing slash); the value itself when unparsable. */
const originOf = (value: string) => {
  try {
    return new URL(value).origin;
  } catch {
    return value;
  }
};

/**
 * Wings' upgrade check: the browser's Origin must be the panel's or one of the allowed ones (`*` allows any,
 * as in Wings' allowed_origins). No Origin at all is refused: the console is only opened by the panel's page.
 */
export function isAllowedOrigin(
  origin: string | undefined,
  panelUrl: string,
  allowedOrigins: readonly string[] = [],
): boolean {
  if (origin === undefined || origin === '') return false;
  const actual = originOf(origin);
  if (actual === originOf(panelUrl)) return true;
  return allowedOrigins.some((allowed) => allowed === '*' || originOf(allowed) === actual);
}

import { HttpError } from '@aerie/daemon/http-kit/http-errors';

/** The URL as it may be shown or logged: user name and password never leave the request. */
export function redactUrl(url: URL): string {
  if (url.username === '' && url.password === '') return url.href;
  const shown = new URL(url.href);
  shown.username = '';
  shown.password = '';
  return shown.href;
}

/**
 * The URL a pull was asked for: parsed, http or https.
 * @throws HttpError 400 for anything else (`file://`, `ftp://`, not a URL)
 */
export function pullUrl(text: unknown): URL {
  if (typeof text !== 'string' || !URL.canParse(text)) {
    throw new HttpError(400, 'The url must be a valid http:// or https:// URL.');
  }
  const url = new URL(text);
  assertPullable(url);
  return url;
}

/** Only http and https are fetched, whatever a user or a redirect names. */
export function assertPullable(url: URL): void {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new HttpError(400, `Only http:// and https:// URLs can be pulled, not ${url.protocol}//.`);
  }
}

/** Control characters (C0, DEL, C1), path separators and NUL are never part of a pulled file's name. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching them is the point.
const UNSAFE_CHARACTERS = /[\u0000-\u001f\u007f-\u009f/\\]/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching them is the point.
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f]/g;
const MAX_NAME_BYTES = 255;

/**
 * The `file_name` a user gave, as one plain name in the directory: a name holding `/`, `\`, NUL or a control
 * character, `.`, `..` or more than 255 bytes is refused, never altered.
 * @throws HttpError 400 naming what is wrong
 */
export function givenFileName(name: string): string {
  if (UNSAFE_CHARACTERS.test(name) || name === '.' || name === '..' || name.trim() === '') {
    throw new HttpError(
      400,
      'The file name must be a plain name: no "/", "\\", control characters, "." or "..".',
    );
  }
  if (Buffer.byteLength(name) > MAX_NAME_BYTES) throw new HttpError(400, 'That file name is too long.');
  return name;
}

/**
 * A name read from the remote side (Content-Disposition or the URL's last segment), made plain: only what follows
 * the last `/` or `\`, control characters removed. Undefined when nothing usable is left (`..`, empty, too long).
 */
export function remoteFileName(raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  const last = raw.split(/[/\\]/).at(-1) ?? '';
  const name = last.replace(CONTROL_CHARACTERS, '').trim();
  if (name === '' || name === '.' || name === '..' || Buffer.byteLength(name) > MAX_NAME_BYTES)
    return undefined;
  return name;
}

/** The URL's last path segment, percent-decoded (undefined when the path ends with `/`). */
export function urlFileName(url: URL): string | undefined {
  const segment = url.pathname.split('/').at(-1) ?? '';
  try {
    return remoteFileName(decodeURIComponent(segment));
  } catch {
    return remoteFileName(segment);
  }
}

/**
 * The file name of a `Content-Disposition` header: RFC 6266's `filename*=UTF-8''…` first, else `filename=` (quoted
 * or a token). Undefined when there is none.
 */
export function dispositionFileName(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  const extended = /(?:^|;)\s*filename\*\s*=\s*([^']*)'[^']*'([^;]*)/i.exec(header);
  if (extended) {
    try {
      const charset = (extended[1] ?? '').toLowerCase();
      const value = (extended[2] ?? '').trim();
      return charset === 'utf-8'
        ? decodeURIComponent(value)
        : value.replace(/%([0-9a-f]{2})/gi, (_, hex: string) =>
            String.fromCharCode(Number.parseInt(hex, 16)),
          );
    } catch {
      // Not decodable: try the plain parameter.
    }
  }
  const quoted = /(?:^|;)\s*filename\s*=\s*"((?:[^"\\]|\\.)*)"/i.exec(header);
  if (quoted) return (quoted[1] ?? '').replace(/\\(.)/g, '$1');
  const token = /(?:^|;)\s*filename\s*=\s*([^;\s]+)/i.exec(header);
  return token?.[1];
}

import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { CSRF_META_NAME, type PageUser, type SiteConfiguration } from '@aerie/shared/boot/page-globals';

/** Thrown at boot when the web app has not been built. */
export class WebBuildMissingError extends Error {
  override name = 'WebBuildMissingError';
}

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );

/**
 * JSON that is safe inside a <script> element: `<` (so no `</script>` or `<!--`), `>` and `&` are written as
 * unicode escapes, as are U+2028/U+2029. The value parses to exactly the same data.
 */
export const scriptSafeJson = (value: unknown) =>
  JSON.stringify(value).replace(
    /[<>&\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );

interface ShellParts {
  /** Up to where the title goes (the old <title> removed). */
  head: string;
  /** From after the title to before </head>. */
  headEnd: string;
  rest: string;
  mtimeMs: number;
}

const TITLE = /<title>[\s\S]*?<\/title>/i;

/** Reads index.html and splits it where the product name's title and the per-request tags go. */
function readShell(file: string): ShellParts {
  const mtimeMs = statSync(file).mtimeMs;
  const html = readFileSync(file, 'utf8');
  const at = html.search(/<\/head>/i);
  if (at === -1) throw new WebBuildMissingError(`${file} has no </head>: is it the web app's build output?`);
  const head = html.slice(0, at);
  const title = TITLE.exec(head);
  return title
    ? {
        head: head.slice(0, title.index),
        headEnd: head.slice(title.index + title[0].length),
        rest: html.slice(at),
        mtimeMs,
      }
    : { head, headEnd: '', rest: html.slice(at), mtimeMs };
}

/** How often at most a render looks whether the web app was rebuilt. */
const REBUILD_CHECK_MS = 1000;

/**
 * The SPA's index.html with, per request, the product name as its title (`site.name`, which an admin may change at
 * any time) and the CSRF meta tag and the page globals injected before </head>.
 * Rendering is two string joins. A rebuild of the web app under a running panel changes the asset names in
 * index.html, so the file is read again when its mtime changes (looked at most once a second); while a
 * rebuild is half-written the last good copy keeps being served.
 */
export class HtmlShell {
  private lastCheck = Date.now();

  private constructor(
    private readonly file: string,
    private parts: ShellParts,
  ) {}

  /** @throws WebBuildMissingError when `<webDist>/index.html` does not exist */
  static load(webDist: string): HtmlShell {
    const file = join(webDist, 'index.html');
    if (!existsSync(file)) {
      throw new WebBuildMissingError(
        `The web app is not built: ${file} is missing. Run "npm run build" (or "npm start", which builds it) first.`,
      );
    }
    return new HtmlShell(file, readShell(file));
  }

  private refreshIfRebuilt(): void {
    const now = Date.now();
    if (now - this.lastCheck < REBUILD_CHECK_MS) return;
    this.lastCheck = now;
    try {
      if (statSync(this.file).mtimeMs !== this.parts.mtimeMs) this.parts = readShell(this.file);
    } catch {
      // Mid-rebuild (file gone or incomplete): keep serving the previous build.
    }
  }

  /** @param input.nonce the page's script nonce (its Content-Security-Policy allows only that inline script) */
  render(input: {
    csrfToken: string;
    user: PageUser | null;
    site: SiteConfiguration;
    nonce: string;
  }): string {
    this.refreshIfRebuilt();
    const meta = `<meta name="${CSRF_META_NAME}" content="${escapeHtml(input.csrfToken)}">`;
    const script = `<script nonce="${escapeHtml(input.nonce)}">window.PterodactylUser = ${scriptSafeJson(input.user)}; window.SiteConfiguration = ${scriptSafeJson(input.site)};</script>`;
    const title = `<title>${escapeHtml(input.site.name)}</title>`;
    return `${this.parts.head}${title}${this.parts.headEnd}${meta}${script}${this.parts.rest}`;
  }
}

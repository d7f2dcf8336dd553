import { existsSync, readFileSync } from 'node:fs';
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

/**
 * The SPA's index.html with, per request, the CSRF meta tag and the page globals injected before </head>.
 * The file is read and split once at boot; rendering is two string joins.
 */
export class HtmlShell {
  private constructor(
    private readonly head: string,
    private readonly rest: string,
  ) {}

  /** @throws WebBuildMissingError when `<webDist>/index.html` does not exist */
  static load(webDist: string, appName: string): HtmlShell {
    const file = join(webDist, 'index.html');
    if (!existsSync(file)) {
      throw new WebBuildMissingError(
        `The web app is not built: ${file} is missing. Run "npm run build" (or "npm start", which builds it) first.`,
      );
    }
    const html = readFileSync(file, 'utf8');
    const title = `<title>${escapeHtml(appName)}</title>`;
    const titled = /<title>[\s\S]*?<\/title>/i.test(html)
      ? html.replace(/<title>[\s\S]*?<\/title>/i, title)
      : html.replace(/<\/head>/i, `${title}</head>`);
    const at = titled.search(/<\/head>/i);
    if (at === -1)
      throw new WebBuildMissingError(`${file} has no </head>: is it the web app's build output?`);
    return new HtmlShell(titled.slice(0, at), titled.slice(at));
  }

  render(input: { csrfToken: string; user: PageUser | null; site: SiteConfiguration }): string {
    const meta = `<meta name="${CSRF_META_NAME}" content="${escapeHtml(input.csrfToken)}">`;
    const script = `<script>window.PterodactylUser = ${scriptSafeJson(input.user)}; window.SiteConfiguration = ${scriptSafeJson(input.site)};</script>`;
    return `${this.head}${meta}${script}${this.rest}`;
  }
}

import type { FastifyRequest } from 'fastify';

const originOf = (url: string): string | null => {
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
};

/**
 * Whether a state-changing GET (the sign-out link) was started by the panel's own pages or by the user, not by
 * another site (an `<img src>`, a link, a form). Browsers that send Fetch Metadata say so in `Sec-Fetch-Site`:
 * only `same-origin` and `none` (typed, bookmarked) pass, `same-site` does not (a sibling subdomain is another
 * site's code). Older browsers send no such header: then the `Origin`, or failing that the `Referer`, must be
 * the panel's own (APP_URL); with neither the request is refused, since nothing shows where it came from.
 */
export function isOwnPageRequest(request: FastifyRequest, appUrl: string): boolean {
  const site = request.headers['sec-fetch-site'];
  if (typeof site === 'string') return site === 'same-origin' || site === 'none';
  const source = request.headers.origin ?? request.headers.referer;
  if (typeof source !== 'string') return false;
  const origin = originOf(source);
  return origin !== null && origin === originOf(appUrl);
}

import { randomToken } from '@aerie/panel/crypto/tokens';
import type { FastifyInstance } from 'fastify';

/** Sent with every answer of the panel: pages, API, static files, translations, errors. */
const EVERY_RESPONSE = {
  // Clickjacking: nothing may frame the panel (the CSP's frame-ancestors says the same to newer browsers).
  'x-frame-options': 'DENY',
  // A file is what its Content-Type says, never what a browser guesses from its bytes.
  'x-content-type-options': 'nosniff',
  // Links out of the panel do not carry its paths (server ids, reset tokens) to other sites.
  'referrer-policy': 'same-origin',
} as const;

/**
 * The policy of everything that is not the HTML shell (JSON, assets, translations, favicon, errors): such an
 * answer opened on its own as a document may run, load and frame nothing.
 */
export const RESOURCE_CSP = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

/** Google's reCAPTCHA script and its challenge frame (Google's CSP guide for reCAPTCHA v2). */
const RECAPTCHA = {
  script: ['https://www.google.com/recaptcha/', 'https://www.gstatic.com/recaptcha/'],
  frame: ['https://www.google.com/recaptcha/', 'https://recaptcha.google.com/recaptcha/'],
};

/** A fresh nonce for one page's inline script. */
export const scriptNonce = () => randomToken(18);

/**
 * The policy of the HTML shell, the one document the SPA runs in:
 * - scripts: the build's own files and the shell's inline page globals by this page's nonce (plus Google's
 *   reCAPTCHA when it is on); no eval, no other inline script;
 * - styles: the build's stylesheet and inline styles, which the console terminal (xterm) and the file editor
 *   (CodeMirror) insert at run time; styles cannot run code;
 * - connections: the panel, and each node's daemon (the browser opens the console websocket and the signed
 *   upload URLs on the node itself);
 * - images: the panel and `data:` (the 2FA QR code), and the avatar service when one is configured.
 */
export function documentCsp(input: {
  nonce: string;
  /** Origins the page may fetch from and open websockets to besides its own (the nodes' daemons). */
  connectSources: readonly string[];
  recaptcha: boolean;
  /** The origin of `AVATAR_URL_TEMPLATE` (users' pictures), when set. */
  avatarOrigin?: string | undefined;
}): string {
  const script = ["'self'", `'nonce-${input.nonce}'`, ...(input.recaptcha ? RECAPTCHA.script : [])];
  const frame = input.recaptcha ? RECAPTCHA.frame : ["'none'"];
  return [
    "default-src 'self'",
    `script-src ${script.join(' ')}`,
    "style-src 'self' 'unsafe-inline'",
    `img-src ${["'self'", 'data:', ...(input.avatarOrigin ? [input.avatarOrigin] : [])].join(' ')}`,
    "font-src 'self'",
    `connect-src ${["'self'", ...input.connectSources].join(' ')}`,
    `frame-src ${frame.join(' ')}`,
    "worker-src 'none'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/**
 * Adds the headers above to every answer, as it is sent (so errors, 404s and static files get them too). An
 * answer that set its own Content-Security-Policy (the HTML shell) keeps it.
 */
export function registerSecurityHeaders(app: FastifyInstance): void {
  app.addHook('onSend', async (_request, reply, payload) => {
    reply.headers(EVERY_RESPONSE);
    if (!reply.hasHeader('content-security-policy')) reply.header('content-security-policy', RESOURCE_CSP);
    return payload;
  });
}

import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { OAuthPresets } from '@aerie/panel/features/oauth/oauth-presets';

/** Who the stand-in signs in next, as Discord's `/users/@me` and GitHub's `/user` + `/user/emails` describe them. */
export interface StandInUser {
  id: string;
  username: string;
  /** Discord: the account's one address and whether Discord verified it. */
  email?: string;
  verified?: boolean;
  /** GitHub: every address of the account. */
  emails?: { email: string; primary: boolean; verified: boolean }[];
}

/**
 * Discord's and GitHub's OAuth2 endpoints and user APIs as a server on loopback (no network reaches theirs from
 * here): it authorizes at once as `nextUser`, exchanges a code only for its PKCE verifier, this client's secret and
 * redirect URI, and answers the user API for the access token. Its shapes are the ones Discord's and GitHub's
 * documentation give; the panel's own OAuth client (openid-client) talks to it unchanged.
 */
export class OAuth2PresetStandIn {
  nextUser: StandInUser = { id: '1', username: 'nobody' };
  readonly #codes = new Map<string, { challenge: string; redirectUri: string; user: StandInUser }>();
  readonly #tokens = new Map<string, StandInUser>();
  #server: Server | undefined;
  origin = '';

  constructor(readonly client: { id: string; secret: string }) {}

  async start(): Promise<void> {
    this.#server = createServer((request, response) => {
      this.#handle(request, response).catch((error: unknown) => {
        response.writeHead(500).end(String(error));
      });
    });
    await new Promise<void>((resolve) => this.#server?.listen(0, '127.0.0.1', resolve));
    this.origin = `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
  }

  stop(): Promise<void> {
    return new Promise((resolve) => (this.#server ? this.#server.close(() => resolve()) : resolve()));
  }

  /** The presets with Discord's and GitHub's addresses replaced by this server's. */
  presets(): OAuthPresets {
    const at = (service: string) => ({
      issuer: `${this.origin}/${service}`,
      authorization_endpoint: `${this.origin}/${service}/authorize`,
      token_endpoint: `${this.origin}/${service}/token`,
    });
    return {
      discord: {
        metadata: { ...at('discord'), userinfo_endpoint: `${this.origin}/discord/users/@me` },
        scopes: ['identify', 'email'],
      },
      github: {
        metadata: { ...at('github'), userinfo_endpoint: `${this.origin}/github/user` },
        scopes: ['read:user', 'user:email'],
      },
    };
  }

  async #handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', this.origin);
    const [, service, ...rest] = url.pathname.split('/');
    const path = rest.join('/');
    const json = (status: number, body: unknown) =>
      response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));

    if (path === 'authorize') {
      const query = url.searchParams;
      if (query.get('client_id') !== this.client.id || query.get('code_challenge_method') !== 'S256')
        return void json(400, { error: 'invalid_request' });
      const code = randomBytes(16).toString('hex');
      const redirectUri = query.get('redirect_uri') ?? '';
      this.#codes.set(code, {
        challenge: query.get('code_challenge') ?? '',
        redirectUri,
        user: this.nextUser,
      });
      const back = new URL(redirectUri);
      back.searchParams.set('code', code);
      back.searchParams.set('state', query.get('state') ?? '');
      return void response.writeHead(302, { location: back.href }).end();
    }
    if (path === 'token' && request.method === 'POST') {
      const form = new URLSearchParams(await bodyOf(request));
      const basic = /^Basic (.+)$/.exec(request.headers.authorization ?? '')?.[1];
      const [id, secret] = basic
        ? Buffer.from(basic, 'base64').toString().split(':').map(decodeURIComponent)
        : [form.get('client_id'), form.get('client_secret')];
      const grant = this.#codes.get(form.get('code') ?? '');
      this.#codes.delete(form.get('code') ?? '');
      const verifier = form.get('code_verifier') ?? '';
      const challenge = createHash('sha256').update(verifier).digest('base64url');
      if (id !== this.client.id || secret !== this.client.secret)
        return void json(401, { error: 'invalid_client' });
      if (!grant || grant.challenge !== challenge || grant.redirectUri !== form.get('redirect_uri'))
        return void json(400, { error: 'invalid_grant' });
      const accessToken = randomBytes(16).toString('hex');
      this.#tokens.set(accessToken, grant.user);
      return void json(200, { access_token: accessToken, token_type: 'Bearer', scope: 'identify email' });
    }
    const user = this.#tokens.get(/^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1] ?? '');
    if (!user) return void json(401, { message: '401: Unauthorized' });
    if (service === 'discord' && path === 'users/@me')
      return void json(200, {
        id: user.id,
        username: user.username,
        global_name: null,
        email: user.email ?? null,
        verified: user.verified ?? false,
      });
    if (service === 'github' && path === 'user')
      return void json(200, { id: Number(user.id), login: user.username });
    if (service === 'github' && path === 'user/emails') return void json(200, user.emails ?? []);
    json(404, { message: 'Not Found' });
  }
}

function bodyOf(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let body = '';
    request.on('data', (chunk) => {
      body += chunk;
    });
    request.on('end', () => resolve(body));
    request.on('error', reject);
  });
}

import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';

type Body = Record<string, unknown> | unknown[] | string | undefined;

/**
 * A browser in front of `app.inject()`: keeps cookies, reads the CSRF token from the last page's meta tag and
 * sends the SPA's headers, from its own IP address.
 */
export class TestBrowser {
  readonly cookies = new Map<string, string>();
  csrfToken: string | undefined;

  constructor(
    private readonly app: FastifyInstance,
    readonly ip = '127.0.0.1',
  ) {}

  /** GET a page (the HTML shell) and remember its CSRF token. */
  async open(url: string): Promise<LightMyRequestResponse> {
    const response = await this.request({ method: 'GET', url });
    const token = /<meta name="csrf-token" content="([^"]+)">/.exec(response.body)?.[1];
    if (token) this.csrfToken = token;
    return response;
  }

  get(url: string, headers: Record<string, string> = {}) {
    return this.request({ method: 'GET', url, headers: { accept: 'application/json', ...headers } });
  }

  /** A JSON POST like the SPA's: CSRF header (unless `csrf: false`), XHR marker, JSON body. */
  post(
    url: string,
    body?: Body,
    options: { csrf?: boolean | string; headers?: Record<string, string> } = {},
  ) {
    return this.send('POST', url, body, options);
  }

  /** Any mutating request (PUT, PATCH, DELETE…) the way `post` sends it. */
  async send(
    method: 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    url: string,
    body?: Body,
    options: { csrf?: boolean | string; headers?: Record<string, string> } = {},
  ) {
    if (options.csrf !== false && !this.csrfToken && typeof options.csrf !== 'string')
      await this.open('/auth/login');
    const csrf =
      typeof options.csrf === 'string' ? options.csrf : options.csrf === false ? undefined : this.csrfToken;
    return this.request({
      method,
      url,
      headers: {
        accept: 'application/json',
        'x-requested-with': 'XMLHttpRequest',
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(csrf ? { 'x-csrf-token': csrf } : {}),
        ...options.headers,
      },
      ...(body === undefined ? {} : { payload: typeof body === 'string' ? body : JSON.stringify(body) }),
    });
  }

  /** Signs in through the real endpoints and loads the dashboard, as the SPA does after a complete login. */
  async signIn(user: string, password: string): Promise<LightMyRequestResponse> {
    const response = await this.post('/auth/login', { user, password });
    if (response.statusCode !== 200 || response.json().data.complete !== true) {
      throw new Error(`sign-in failed: ${response.statusCode} ${response.body}`);
    }
    await this.open('/');
    return response;
  }

  async request(options: InjectOptions): Promise<LightMyRequestResponse> {
    const cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    const response = await this.app.inject({
      ...options,
      remoteAddress: this.ip,
      headers: { ...(cookie ? { cookie } : {}), ...options.headers },
    });
    for (const set of response.cookies as {
      name: string;
      value: string;
      expires?: Date;
      maxAge?: number;
    }[]) {
      const expired =
        set.value === '' || (set.expires && set.expires.getTime() <= Date.now()) || set.maxAge === 0;
      if (expired) this.cookies.delete(set.name);
      else this.cookies.set(set.name, set.value);
    }
    return response;
  }
}

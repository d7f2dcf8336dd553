import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const fixture = fileURLToPath(new URL('./fixtures/oidc-provider.mjs', import.meta.url));

export interface OidcClient {
  client_id: string;
  client_secret: string;
  redirect_uris: string[];
}

/** Claims of a provider account: `sub` is its id unless given. */
export interface OidcClaims {
  email?: string;
  email_verified?: boolean;
  preferred_username?: string;
  name?: string;
}

export interface OidcProviderProcess {
  issuer: string;
  /** Adds (or replaces) an account the provider signs in as `id`. */
  putAccount(id: string, claims: OidcClaims): Promise<void>;
  stop(): Promise<void>;
}

/**
 * A real OpenID Connect provider (`oidc-provider`) in a process of its own on 127.0.0.1, with one confidential
 * client; resolves once it listens. The panel reaches it over the network like any issuer (the tests open
 * loopback with AERIE_OUTBOUND_ALLOW).
 */
export function startOidcProvider(client: OidcClient): Promise<OidcProviderProcess> {
  const child: ChildProcess = spawn(process.execPath, [fixture], {
    env: { ...process.env, OIDC_CLIENT: JSON.stringify(client), NODE_OPTIONS: '' },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let output = '';
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk;
      const issuer = /ISSUER=(\S+)/.exec(output)?.[1];
      if (!issuer) return;
      child.stdout?.off('data', onData);
      resolve({
        issuer,
        putAccount: async (id, claims) => {
          const response = await fetch(`${issuer}/__test/accounts/${encodeURIComponent(id)}`, {
            method: 'PUT',
            body: JSON.stringify(claims),
          });
          if (response.status !== 204) throw new Error(`account not stored: ${response.status}`);
        },
        stop: () =>
          new Promise<void>((done) => {
            if (child.exitCode !== null) return done();
            child.once('exit', () => done());
            child.stdin?.end();
            setTimeout(() => child.kill('SIGKILL'), 3000).unref();
          }),
      });
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', (chunk: Buffer) => {
      output += chunk;
    });
    child.once('exit', (code) => reject(new Error(`oidc-provider exited with ${code}:\n${output}`)));
  });
}

/**
 * The browser's side at the provider: follows its redirects with its cookies, and fills in its development
 * sign-in form as `login`. Any cookie goes back whatever its path (one host, one test).
 */
export class ProviderBrowser {
  readonly #cookies = new Map<string, string>();

  /**
   * Opens the authorization URL the panel redirected to, signs in as `login`, and returns the URL the provider
   * sends the browser back to (the panel's callback with `code`, `state`, `iss`).
   */
  async signIn(authorizationUrl: string, login: string): Promise<URL> {
    let response = await this.#get(authorizationUrl);
    let location = this.#location(response, authorizationUrl);
    // The development interaction: its page is /interaction/<uid>, and its form posts back there.
    while (location.pathname.startsWith('/interaction/')) {
      response = await this.#request(location.href, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ prompt: 'login', login, password: 'any' }).toString(),
      });
      location = this.#location(response, location.href);
      while (
        location.origin === new URL(authorizationUrl).origin &&
        !location.pathname.startsWith('/interaction/')
      ) {
        response = await this.#get(location.href);
        location = this.#location(response, location.href);
      }
    }
    return location;
  }

  #get(url: string) {
    return this.#request(url, { method: 'GET' });
  }

  async #request(url: string, init: RequestInit): Promise<Response> {
    const cookie = [...this.#cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    const response = await fetch(url, {
      ...init,
      redirect: 'manual',
      headers: { ...(init.headers as Record<string, string>), ...(cookie ? { cookie } : {}) },
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const index = pair.indexOf('=');
      const name = pair.slice(0, index).trim();
      const value = pair.slice(index + 1).trim();
      if (value === '' || /expires=Thu, 01 Jan 1970/i.test(line)) this.#cookies.delete(name);
      else this.#cookies.set(name, value);
    }
    await response.arrayBuffer();
    return response;
  }

  #location(response: Response, base: string): URL {
    const location = response.headers.get('location');
    if (response.status < 300 || response.status >= 400 || !location) {
      throw new Error(`the provider answered ${response.status} without a redirect at ${base}`);
    }
    return new URL(location, base);
  }
}

/** Signs in through the real /auth/login flow and returns the Cookie header of the new session. */
export async function signIn(baseUrl: string, user: string, password: string): Promise<string> {
  const shell = await fetch(`${baseUrl}/auth/login`);
  const csrf = (await shell.text()).match(/<meta name="csrf-token" content="([^"]+)"/)?.[1];
  if (!csrf) throw new Error('the login page carries no csrf-token meta tag');
  const jar = new Map<string, string>();
  const keep = (response: Response) => {
    for (const cookie of response.headers.getSetCookie()) {
      const [pair] = cookie.split(';');
      const [name, ...value] = (pair ?? '').split('=');
      if (name) jar.set(name.trim(), value.join('='));
    }
  };
  keep(shell);
  const cookieHeader = () => [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
  const login = await fetch(`${baseUrl}/auth/login`, {
    method: 'POST',
    headers: {
      accept: 'application/json',
      'content-type': 'application/json',
      'x-requested-with': 'XMLHttpRequest',
      'x-csrf-token': csrf,
      cookie: cookieHeader(),
    },
    body: JSON.stringify({ user, password }),
  });
  if (login.status !== 200) throw new Error(`sign-in failed: ${login.status} ${await login.text()}`);
  keep(login);
  return cookieHeader();
}

/** The headers of a client API request made with a session from `signIn`, as the SPA sends them. */
export const sessionApiHeaders = (cookie: string) => ({
  cookie,
  accept: 'application/json',
  'x-requested-with': 'XMLHttpRequest',
});

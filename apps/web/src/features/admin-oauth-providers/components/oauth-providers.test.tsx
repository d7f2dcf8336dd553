import type { OAuthProviderAttributes } from '@aerie/shared/oauth/oauth-wire';
import { laravelMessages } from '@aerie/shared/validation/laravel-messages';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { setUpPanelTestServer } from '@/testing/panel-test-hooks';
import { pageUser, renderApp } from '@/testing/render-app';

const panel = setUpPanelTestServer();
const root = pageUser({ root_admin: true });

const providerItem = (id: number, overrides: Partial<OAuthProviderAttributes> = {}) => ({
  object: 'oauth_provider',
  attributes: {
    id,
    slug: 'acme',
    name: 'Acme SSO',
    kind: 'oidc',
    issuer: 'https://id.acme.example',
    client_id: 'aerie-panel',
    client_secret_set: true,
    scopes: ['openid', 'email', 'profile'],
    enabled: true,
    create_accounts: false,
    email_domains: ['acme.example'],
    allow_two_factor_accounts: false,
    redirect_uri: 'https://panel.example.com/auth/oauth/acme/callback',
    created_at: '2026-03-01T10:00:00+00:00',
    updated_at: '2026-03-01T10:00:00+00:00',
    ...overrides,
  } satisfies OAuthProviderAttributes,
});

const list = (...items: unknown[]) => ({
  body: {
    object: 'list',
    data: items,
    meta: {
      pagination: { total: items.length, count: items.length, per_page: 50, current_page: 1, total_pages: 1 },
    },
  },
});

const requests = (method: string, url: string) =>
  panel.requests.filter((request) => request.method === method && request.url.split('?')[0] === url);

const validationError = (field: string, detail: string) => ({
  status: 422,
  body: {
    errors: [
      { code: 'ValidationException', status: '422', detail, meta: { source_field: field, rule: 'regex' } },
    ],
  },
});

describe('/admin/oauth-providers', () => {
  it('lists the providers with slug, kind, state and redirect URI, for root admins', async () => {
    panel.on('GET /api/application/oauth-providers', () =>
      list(
        providerItem(1),
        providerItem(2, {
          slug: 'discord',
          name: 'Discord',
          kind: 'discord',
          issuer: null,
          enabled: false,
          redirect_uri: 'https://panel.example.com/auth/oauth/discord/callback',
        }),
      ),
    );
    renderApp('/admin/oauth-providers', { user: root });
    const rows = within(await screen.findByRole('table')).getAllByRole('row');
    expect(rows[1]).toHaveTextContent('Acme SSO');
    expect(rows[1]).toHaveTextContent('acme');
    expect(rows[1]).toHaveTextContent('OpenID Connect');
    expect(rows[1]).toHaveTextContent('Enabled');
    expect(rows[1]).toHaveTextContent('https://panel.example.com/auth/oauth/acme/callback');
    expect(rows[2]).toHaveTextContent('Discord');
    expect(rows[2]).toHaveTextContent('Disabled');
    expect(within(rows[1] as HTMLElement).getByRole('link', { name: 'Acme SSO' })).toHaveAttribute(
      'href',
      '/admin/oauth-providers/1',
    );
    const menu = screen.getByRole('navigation', { name: 'Administration' });
    expect(within(menu).getByRole('link', { name: 'Sign-in Providers' })).toHaveAttribute(
      'aria-current',
      'page',
    );
  });

  it('is neither in the menu nor reachable for an admin with a role, even one holding every permission', async () => {
    const roleAdmin = pageUser({ admin_permissions: [...root.admin_permissions] });
    renderApp('/admin/oauth-providers', { user: roleAdmin });
    expect(await screen.findByRole('heading', { name: '404' })).toBeInTheDocument();
    const menu = screen.getByRole('navigation', { name: 'Administration' });
    expect(within(menu).queryByRole('link', { name: 'Sign-in Providers' })).not.toBeInTheDocument();
    expect(requests('GET', '/api/application/oauth-providers')).toEqual([]);
  });
});

describe('/admin/oauth-providers/new', () => {
  it('asks for the issuer only for OpenID Connect, checks the form, then sends the provider', async () => {
    panel.on('POST /api/application/oauth-providers', () => ({ status: 201, body: providerItem(7) }));
    panel.on('GET /api/application/oauth-providers/7', () => ({ body: providerItem(7) }));
    const { user, router } = renderApp('/admin/oauth-providers/new', { user: root });
    const kind = await screen.findByLabelText('Kind');
    expect(kind).toHaveValue('oidc');
    await user.click(screen.getByRole('button', { name: 'Create Provider' }));
    expect(await screen.findByText(laravelMessages.required('issuer'))).toBeInTheDocument();
    expect(screen.getByLabelText('Client secret')).toHaveAccessibleDescription(
      laravelMessages.required('client secret'),
    );
    expect(requests('POST', '/api/application/oauth-providers')).toEqual([]);

    await user.type(screen.getByLabelText('Name'), 'Acme SSO');
    await user.type(screen.getByLabelText('Slug'), 'acme');
    expect(screen.getByText(`${window.location.origin}/auth/oauth/acme/callback`)).toBeInTheDocument();
    await user.type(screen.getByLabelText('Issuer'), 'https://id.acme.example');
    await user.type(screen.getByLabelText('Client ID'), 'aerie-panel');
    await user.type(screen.getByLabelText('Client secret'), 's3cret');
    await user.type(screen.getByLabelText('Scopes'), 'openid, email profile');
    await user.type(screen.getByLabelText('Email domains'), 'acme.example{enter}@Corp.Example');
    await user.click(screen.getByRole('switch', { name: 'Create accounts' }));
    await user.click(screen.getByRole('button', { name: 'Create Provider' }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/oauth-providers/7'));
    expect(requests('POST', '/api/application/oauth-providers').map((request) => request.body)).toEqual([
      {
        slug: 'acme',
        name: 'Acme SSO',
        kind: 'oidc',
        issuer: 'https://id.acme.example',
        client_id: 'aerie-panel',
        client_secret: 's3cret',
        scopes: ['openid', 'email', 'profile'],
        enabled: true,
        create_accounts: true,
        email_domains: ['acme.example', 'corp.example'],
        allow_two_factor_accounts: false,
      },
    ]);
    expect(await screen.findByText('The sign-in provider was created.')).toBeInTheDocument();
  });

  it('hides the issuer for a preset and sends it as null', async () => {
    panel.on('POST /api/application/oauth-providers', () => ({
      status: 201,
      body: providerItem(8, { kind: 'github', issuer: null, slug: 'github', name: 'GitHub' }),
    }));
    panel.on('GET /api/application/oauth-providers/8', () => ({
      body: providerItem(8, { kind: 'github', issuer: null, slug: 'github', name: 'GitHub' }),
    }));
    const { user, router } = renderApp('/admin/oauth-providers/new', { user: root });
    await user.selectOptions(await screen.findByLabelText('Kind'), 'github');
    expect(screen.queryByLabelText('Issuer')).not.toBeInTheDocument();
    await user.type(screen.getByLabelText('Name'), 'GitHub');
    await user.type(screen.getByLabelText('Slug'), 'github');
    await user.type(screen.getByLabelText('Client ID'), 'Iv1.abc');
    await user.type(screen.getByLabelText('Client secret'), 'gh-secret');
    await user.click(screen.getByRole('button', { name: 'Create Provider' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/oauth-providers/8'));
    expect(requests('POST', '/api/application/oauth-providers')[0]?.body).toMatchObject({
      kind: 'github',
      issuer: null,
      scopes: [],
      email_domains: [],
    });
  });

  it("shows the panel's 422 under its field", async () => {
    panel.on('POST /api/application/oauth-providers', () =>
      validationError('email_domains', 'The email domains format is invalid.'),
    );
    const { user } = renderApp('/admin/oauth-providers/new', { user: root });
    await user.selectOptions(await screen.findByLabelText('Kind'), 'discord');
    await user.type(screen.getByLabelText('Name'), 'Discord');
    await user.type(screen.getByLabelText('Slug'), 'discord');
    await user.type(screen.getByLabelText('Client ID'), '1234');
    await user.type(screen.getByLabelText('Client secret'), 'secret');
    await user.type(screen.getByLabelText('Email domains'), 'not a domain!');
    await user.click(screen.getByRole('button', { name: 'Create Provider' }));
    await waitFor(() =>
      expect(screen.getByLabelText('Email domains')).toHaveAccessibleDescription(
        'The email domains format is invalid.',
      ),
    );
    expect(screen.queryByText('The sign-in provider was created.')).not.toBeInTheDocument();
  });
});

describe('/admin/oauth-providers/:id', () => {
  it('shows the redirect URI to copy and keeps the saved secret when the field is left blank', async () => {
    panel.on('GET /api/application/oauth-providers/3', () => ({ body: providerItem(3) }));
    panel.on('PATCH /api/application/oauth-providers/3', () => ({
      body: providerItem(3, { name: 'Acme Login', enabled: false }),
    }));
    const { user } = renderApp('/admin/oauth-providers/3', { user: root });
    const name = await screen.findByLabelText('Name');
    expect(name).toHaveValue('Acme SSO');
    expect(screen.getByLabelText('Scopes')).toHaveValue('openid email profile');
    expect(screen.getByLabelText('Email domains')).toHaveValue('acme.example');
    expect(screen.getByLabelText('Client secret')).toHaveValue('');
    expect(screen.getByLabelText('Client secret')).toHaveAccessibleDescription(
      'A client secret is saved: leave blank to keep it.',
    );
    expect(
      screen.getByRole('button', { name: 'https://panel.example.com/auth/oauth/acme/callback' }),
    ).toBeInTheDocument();

    await user.clear(name);
    await user.type(name, 'Acme Login');
    await user.click(screen.getByRole('switch', { name: 'Enabled' }));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('The sign-in provider was saved.')).toBeInTheDocument();
    const [sent] = requests('PATCH', '/api/application/oauth-providers/3').map((request) => request.body);
    expect(sent).toEqual({
      slug: 'acme',
      name: 'Acme Login',
      kind: 'oidc',
      issuer: 'https://id.acme.example',
      client_id: 'aerie-panel',
      scopes: ['openid', 'email', 'profile'],
      enabled: false,
      create_accounts: false,
      email_domains: ['acme.example'],
      allow_two_factor_accounts: false,
    });
    expect(sent).not.toHaveProperty('client_secret');
  });

  it('sends a new secret when one is typed, and the 422 of a field under it', async () => {
    panel.on('GET /api/application/oauth-providers/3', () => ({ body: providerItem(3) }));
    panel.on('PATCH /api/application/oauth-providers/3', () =>
      validationError('slug', 'The slug format is invalid.'),
    );
    const { user } = renderApp('/admin/oauth-providers/3', { user: root });
    await user.type(await screen.findByLabelText('Client secret'), 'rotated');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(screen.getByLabelText('Slug')).toHaveAccessibleDescription('The slug format is invalid.'),
    );
    expect(requests('PATCH', '/api/application/oauth-providers/3')[0]?.body).toMatchObject({
      client_secret: 'rotated',
    });
  });

  it('deletes after a confirmation and goes back to the list', async () => {
    panel.on('GET /api/application/oauth-providers/3', () => ({ body: providerItem(3) }));
    panel.on('DELETE /api/application/oauth-providers/3', () => ({ status: 204 }));
    panel.on('GET /api/application/oauth-providers', () => list());
    const { user, router } = renderApp('/admin/oauth-providers/3', { user: root });
    await screen.findByLabelText('Name');
    await user.click(screen.getByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete this sign-in provider?' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/oauth-providers'));
    expect(await screen.findByText('The sign-in provider was deleted.')).toBeInTheDocument();
    expect(requests('DELETE', '/api/application/oauth-providers/3')).toHaveLength(1);
  });
});

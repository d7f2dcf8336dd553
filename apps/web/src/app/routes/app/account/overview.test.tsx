import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { pageUser, renderApp } from '@/testing/render-app';

describe('account overview', () => {
  it('has the three panels and no banner on a plain visit', async () => {
    renderApp('/account', { user: pageUser() });
    expect(await screen.findByRole('heading', { name: 'Account Overview' })).toBeInTheDocument();
    for (const title of ['Update Password', 'Update Email Address', 'Configure Two Factor']) {
      expect(screen.getByRole('heading', { name: title })).toBeInTheDocument();
    }
    expect(screen.queryByText('2-Factor Required')).not.toBeInTheDocument();
    expect(document.title).toBe('Account Overview | Aerie Test');
  });

  it('shows the 2-Factor Required banner when the navigation carries twoFactorRedirect', async () => {
    renderApp('/account', { user: pageUser(), state: { twoFactorRedirect: true } });
    expect(await screen.findByRole('alert')).toHaveTextContent(
      '2-Factor RequiredYour account must have two-factor authentication enabled in order to continue.',
    );
  });

  it('ignores a state without the flag', async () => {
    renderApp('/account', { user: pageUser(), state: { twoFactorRedirect: 'yes' } });
    await screen.findByRole('heading', { name: 'Account Overview' });
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});

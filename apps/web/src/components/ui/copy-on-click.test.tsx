import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { CopyOnClick } from '@/components/ui/copy-on-click';
import { renderWithI18n } from '@/testing/render-app';

describe('copy on click', () => {
  it('copies the text and confirms it for 2.5 s', async () => {
    const user = userEvent.setup();
    renderWithI18n(<CopyOnClick text="ptlc_abcdefghijk">the key</CopyOnClick>);
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'the key' }));

    expect(await screen.findByRole('status')).toHaveTextContent('Copied "ptlc_abcdefghijk" to clipboard.');
    expect(await navigator.clipboard.readText()).toBe('ptlc_abcdefghijk');
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    expect(screen.getByRole('status')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('status')).not.toBeInTheDocument(), { timeout: 1_500 });
  });

  it('shows no confirmation when the browser refuses to copy', async () => {
    const user = userEvent.setup();
    vi.spyOn(navigator.clipboard, 'writeText').mockRejectedValue(new Error('denied'));
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    renderWithI18n(<CopyOnClick text="secret">the secret</CopyOnClick>);
    await user.click(screen.getByRole('button', { name: 'the secret' }));
    await waitFor(() => expect(logged).toHaveBeenCalled());
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
  });
});

import { act, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { FlashMessageRender } from '@/components/ui/flash-message-render';
import { MessageBox } from '@/components/ui/message-box';
import { ApiError } from '@/lib/api-client';
import { useFlashStore } from '@/stores/flash-store';
import { renderWithI18n } from '@/testing/render-app';

describe('message box', () => {
  it.each(['error', 'info', 'success', 'warning'] as const)('announces a %s message as an alert', (type) => {
    renderWithI18n(
      <MessageBox type={type} title="Heads up">
        The node is restarting.
      </MessageBox>,
    );
    const alert = screen.getByRole('alert');
    expect(alert).toHaveTextContent('Heads upThe node is restarting.');
    expect(alert).toHaveAttribute('data-type', type);
  });

  it('shows no title when none is given', () => {
    renderWithI18n(<MessageBox>Plain text.</MessageBox>);
    expect(screen.getByRole('alert')).toHaveTextContent(/^Plain text\.$/);
  });
});

describe('flash messages', () => {
  const flash = () => useFlashStore.getState();

  it('shows every flash, or only those of one key', () => {
    renderWithI18n(
      <>
        <section aria-label="all">
          <FlashMessageRender />
        </section>
        <section aria-label="email">
          <FlashMessageRender byKey="account:email" />
        </section>
      </>,
    );
    act(() => {
      flash().addFlash({
        key: 'account:email',
        type: 'success',
        title: 'Success',
        message: 'Your primary email has been updated.',
      });
      flash().addFlash({ key: 'dashboard', type: 'warning', message: 'Node offline.' });
    });
    expect(screen.getByRole('region', { name: 'all' }).querySelectorAll('[role="alert"]')).toHaveLength(2);
    const email = screen.getByRole('region', { name: 'email' });
    expect(email).toHaveTextContent('SuccessYour primary email has been updated.');
    expect(email).not.toHaveTextContent('Node offline.');
  });

  it('replaces all flashes with an HTTP error titled Error under its key', () => {
    renderWithI18n(<FlashMessageRender />);
    act(() => {
      flash().addFlash({ key: 'account', type: 'info', message: 'One' });
      flash().addFlash({ key: 'search', type: 'info', message: 'Two' });
      flash().clearAndAddHttpError({ key: 'account', error: new ApiError(400, 'DisplayException', 'Nope.') });
    });
    const alert = screen.getByRole('alert');
    expect(alert).toHaveTextContent('ErrorNope.');
    expect(alert).toHaveAttribute('data-type', 'error');
    // The title is the page language's "Error", chosen when shown: the flash itself carries none.
    expect(flash().items).toEqual([
      expect.objectContaining({ key: 'account', type: 'error', message: 'Nope.' }),
    ]);
    expect(flash().items[0]?.title).toBeUndefined();
  });

  it('clears the flashes when there is no error, and clears one key at a time', () => {
    renderWithI18n(<FlashMessageRender />);
    act(() => {
      flash().addFlash({ key: 'a', type: 'info', message: 'A' });
      flash().addFlash({ key: 'b', type: 'info', message: 'B' });
      flash().clearFlashes('a');
    });
    expect(screen.getByRole('alert')).toHaveTextContent('B');
    act(() => flash().clearAndAddHttpError({ key: 'dashboard' }));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});

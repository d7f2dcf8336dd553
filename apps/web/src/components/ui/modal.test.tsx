import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { Modal, type ModalProps } from '@/components/ui/modal';
import { renderWithI18n } from '@/testing/render-app';

function Harness(props: Partial<ModalProps> & { onClosed?: () => void }) {
  const [visible, setVisible] = useState(true);
  return (
    <Modal
      title="Delete backup"
      {...props}
      visible={visible}
      onDismissed={() => {
        setVisible(false);
        props.onClosed?.();
      }}
    >
      {props.children ?? <p>Are you sure?</p>}
    </Modal>
  );
}

function setup(props: Partial<ModalProps> = {}) {
  const onClosed = vi.fn();
  renderWithI18n(<Harness {...props} onClosed={onClosed} />);
  return { onClosed, user: userEvent.setup() };
}

const closed = async (onClosed: () => void) => {
  await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  expect(onClosed).toHaveBeenCalledTimes(1);
};

/** Waits longer than the 150 ms fade, then checks the dialog is still there. */
const stillOpen = async (onClosed: () => void) => {
  await new Promise((resolve) => setTimeout(resolve, 250));
  expect(screen.getByRole('dialog', { name: 'Delete backup' })).toBeInTheDocument();
  expect(onClosed).not.toHaveBeenCalled();
};

describe('modal', () => {
  it('shows its title and content as a dialog', () => {
    setup();
    expect(screen.getByRole('dialog', { name: 'Delete backup' })).toHaveTextContent('Are you sure?');
  });

  it('closes on Escape after fading out', async () => {
    const { onClosed, user } = setup();
    await user.keyboard('{Escape}');
    expect(onClosed).not.toHaveBeenCalled();
    await closed(onClosed);
  });

  it('closes on a click on the backdrop but not on a click inside', async () => {
    const { onClosed, user } = setup();
    await user.click(screen.getByText('Are you sure?'));
    await stillOpen(onClosed);
    await user.click(screen.getByTestId('modal-backdrop'));
    await closed(onClosed);
  });

  it('closes with the close icon', async () => {
    const { onClosed, user } = setup();
    await user.click(screen.getByRole('button', { name: 'Close' }));
    await closed(onClosed);
  });

  it('cannot be closed in any way while the spinner overlay shows', async () => {
    const { onClosed, user } = setup({ showSpinnerOverlay: true });
    expect(screen.getByRole('status')).toHaveTextContent('Loading');
    await user.keyboard('{Escape}');
    await user.click(screen.getByTestId('modal-backdrop'));
    expect(screen.getByRole('button', { name: 'Close' })).toBeDisabled();
    await stillOpen(onClosed);
  });

  it('ignores Escape when closeOnEscape is off', async () => {
    const { onClosed, user } = setup({ closeOnEscape: false });
    await user.keyboard('{Escape}');
    await stillOpen(onClosed);
    await user.click(screen.getByTestId('modal-backdrop'));
    await closed(onClosed);
  });

  it('ignores backdrop clicks when closeOnBackground is off', async () => {
    const { onClosed, user } = setup({ closeOnBackground: false });
    await user.click(screen.getByTestId('modal-backdrop'));
    await stillOpen(onClosed);
    await user.keyboard('{Escape}');
    await closed(onClosed);
  });

  it('has no close icon and ignores Escape and backdrop when not dismissable', async () => {
    const { onClosed, user } = setup({ dismissable: false });
    expect(screen.queryByRole('button', { name: 'Close' })).not.toBeInTheDocument();
    await user.keyboard('{Escape}');
    await user.click(screen.getByTestId('modal-backdrop'));
    await stillOpen(onClosed);
  });
});

describe('modal focus', () => {
  it('moves focus into the dialog and keeps Tab inside it', async () => {
    const user = userEvent.setup();
    renderWithI18n(
      <>
        <button type="button">Outside</button>
        <Harness>
          <input aria-label="Name" />
        </Harness>
      </>,
    );
    await waitFor(() => expect(screen.getByRole('dialog')).toHaveFocus());
    await user.tab();
    expect(screen.getByRole('button', { name: 'Close' })).toHaveFocus();
    await user.tab();
    expect(screen.getByLabelText('Name')).toHaveFocus();
    await user.tab();
    expect(screen.getByRole('button', { name: 'Close' })).toHaveFocus();
    await user.tab({ shift: true });
    expect(screen.getByLabelText('Name')).toHaveFocus();
  });
});

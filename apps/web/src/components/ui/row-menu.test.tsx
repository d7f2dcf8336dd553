import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { Modal } from '@/components/ui/modal';
import { RowMenu } from '@/components/ui/row-menu';

type Action = 'rename' | 'move' | 'copy' | 'delete';
const items = [
  { action: 'rename', label: 'Rename' },
  { action: 'move', label: 'Move' },
  { action: 'copy', label: 'Copy' },
  { action: 'delete', label: 'Delete', danger: true },
] satisfies { action: Action; label: string; danger?: boolean }[];

/** A row with the menu, a link after it, and the dialog its Rename opens (as the file manager has them). */
function Row({ onSelect = () => undefined }: { onSelect?: (action: Action) => void }) {
  const [renaming, setRenaming] = useState(false);
  return (
    <>
      <button type="button">Before</button>
      <RowMenu
        label="Actions for server.properties"
        items={items}
        onSelect={(action) => {
          onSelect(action);
          if (action === 'rename') setRenaming(true);
        }}
      >
        ⋯
      </RowMenu>
      <a href="#after">After</a>
      <Modal visible={renaming} onDismissed={() => setRenaming(false)} title="Rename file">
        <button type="button" onClick={() => setRenaming(false)}>
          Cancel
        </button>
      </Modal>
    </>
  );
}

const trigger = () => screen.getByRole('button', { name: 'Actions for server.properties' });
const item = (name: string) => screen.getByRole('menuitem', { name });

async function focusTrigger() {
  const user = userEvent.setup();
  render(<Row />);
  await user.click(screen.getByRole('button', { name: 'Before' }));
  await user.tab();
  expect(trigger()).toHaveFocus();
  return user;
}

describe('row menu: the WAI-ARIA menu button pattern', () => {
  it('is a menu button whose menu is named by it and hidden until opened', async () => {
    render(<Row />);
    expect(trigger()).toHaveAttribute('aria-haspopup', 'menu');
    expect(trigger()).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByRole('menu')).not.toBeInTheDocument();
    await userEvent.setup().click(trigger());
    expect(screen.getByRole('menu', { name: 'Actions for server.properties' })).toBeInTheDocument();
    expect(trigger()).toHaveAttribute('aria-expanded', 'true');
    expect(trigger()).toHaveAttribute('aria-controls', screen.getByRole('menu').id);
    expect(screen.getAllByRole('menuitem').map((element) => element.textContent)).toEqual([
      'Rename',
      'Move',
      'Copy',
      'Delete',
    ]);
  });

  it.each(['{Enter}', ' ', '{ArrowDown}'])('opens on %s with focus on the first item', async (key) => {
    const user = await focusTrigger();
    await user.keyboard(key);
    await waitFor(() => expect(item('Rename')).toHaveFocus());
  });

  it('opens on ArrowUp with focus on the last item', async () => {
    const user = await focusTrigger();
    await user.keyboard('{ArrowUp}');
    await waitFor(() => expect(item('Delete')).toHaveFocus());
  });

  it('moves with the arrows (wrapping), Home, End and a first letter; the items are out of the Tab order', async () => {
    const user = await focusTrigger();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(item('Rename')).toHaveFocus());
    await user.keyboard('{ArrowDown}');
    expect(item('Move')).toHaveFocus();
    await user.keyboard('{ArrowDown}{ArrowDown}');
    expect(item('Delete')).toHaveFocus();
    await user.keyboard('{ArrowDown}');
    expect(item('Rename')).toHaveFocus();
    await user.keyboard('{ArrowUp}');
    expect(item('Delete')).toHaveFocus();
    await user.keyboard('{Home}');
    expect(item('Rename')).toHaveFocus();
    await user.keyboard('{End}');
    expect(item('Delete')).toHaveFocus();
    await user.keyboard('c');
    expect(item('Copy')).toHaveFocus();
    await user.keyboard('m');
    expect(item('Move')).toHaveFocus();
    for (const element of screen.getAllByRole('menuitem')) expect(element).toHaveAttribute('tabindex', '-1');
  });

  it('closes on Escape and gives focus back to its button', async () => {
    const user = await focusTrigger();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(item('Rename')).toHaveFocus());
    await user.keyboard('{ArrowDown}{Escape}');
    expect(screen.queryByRole('menu')).not.toBeInTheDocument();
    expect(trigger()).toHaveFocus();
    expect(trigger()).toHaveAttribute('aria-expanded', 'false');
  });

  it('closes on Tab, which moves on past the button', async () => {
    const user = await focusTrigger();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(item('Rename')).toHaveFocus());
    await user.tab();
    expect(screen.queryByRole('menu')).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'After' })).toHaveFocus();
  });

  it('closes on a press outside', async () => {
    const user = userEvent.setup();
    render(<Row />);
    await user.click(trigger());
    await user.click(screen.getByRole('link', { name: 'After' }));
    expect(screen.queryByRole('menu')).not.toBeInTheDocument();
  });

  it('chooses the focused item with Enter, and closes', async () => {
    const onSelect = vi.fn();
    const user = userEvent.setup();
    render(<Row onSelect={onSelect} />);
    trigger().focus();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(item('Rename')).toHaveFocus());
    await user.keyboard('{End}{Enter}');
    expect(onSelect).toHaveBeenCalledExactlyOnceWith('delete');
    expect(screen.queryByRole('menu')).not.toBeInTheDocument();
    expect(trigger()).toHaveFocus();
  });

  it.each([
    ['Escape', async (user: ReturnType<typeof userEvent.setup>) => user.keyboard('{Escape}')],
    [
      'its own button',
      async (user: ReturnType<typeof userEvent.setup>) =>
        user.click(screen.getByRole('button', { name: 'Cancel' })),
    ],
  ])(
    'gives focus back to the row menu button when the dialog an item opened closes (%s)',
    async (_how, closeDialog) => {
      const user = await focusTrigger();
      await user.keyboard('{Enter}');
      await waitFor(() => expect(item('Rename')).toHaveFocus());
      await user.keyboard('{Enter}');
      const dialog = await screen.findByRole('dialog', { name: 'Rename file' });
      await waitFor(() => expect(dialog).toContainElement(document.activeElement as HTMLElement));
      await closeDialog(user);
      await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
      // The dialog gives focus back once it has gone, a tick after it left the page on a loaded machine.
      await waitFor(() => expect(trigger()).toHaveFocus());
      // The next Tab goes on from the row, not from the top of the page.
      await user.tab();
      expect(screen.getByRole('link', { name: 'After' })).toHaveFocus();
    },
  );
});

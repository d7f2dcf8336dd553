import { fireEvent, screen, waitFor } from '@testing-library/react';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { filesApi, openFilesPage } from '@/testing/files-page';
import { setUpPanelTestServer } from '@/testing/panel-test-hooks';

// The first test compiles CodeMirror's chunk; a busy two-core machine needs more than 5 s.
vi.setConfig({ testTimeout: 30_000 });

const panel = setUpPanelTestServer();

beforeAll(() => {
  // jsdom lays nothing out; CodeMirror measures text ranges after each update.
  Range.prototype.getClientRects ??= () => Object.assign([], { item: () => null }) as unknown as DOMRectList;
  Range.prototype.getBoundingClientRect ??= () => new DOMRect();
});

async function openEditor() {
  panel.on(`GET ${filesApi}/contents`, () => ({ raw: 'motd=Hi\nmax-players=20' }));
  const rendered = openFilesPage(panel, { path: '/server/abcd1234/files/edit#/server.properties' });
  const content = await waitFor(
    () => {
      const element = screen.getByTestId('code-editor').querySelector<HTMLElement>('.cm-content');
      expect(element?.textContent).toContain('motd=Hi');
      return element as HTMLElement;
    },
    { timeout: 15_000 },
  );
  return { ...rendered, content };
}

describe('file editor for keyboard and screen-reader users', () => {
  it('says, visibly and as the editor description, that Escape then Tab leaves it', async () => {
    const { content } = await openEditor();
    const hint = screen.getByText('Press Escape, then Tab, to move out of the editor.');
    expect(hint).toBeVisible();
    expect(content).toHaveAccessibleName('File contents');
    expect(content).toHaveAccessibleDescription('Press Escape, then Tab, to move out of the editor.');
  });

  it('can be reached by keyboard (and so scrolled) even when the file is read-only', async () => {
    panel.on(`GET ${filesApi}/contents`, () => ({ raw: 'motd=Hi' }));
    const { user } = openFilesPage(panel, {
      path: '/server/abcd1234/files/edit#/server.properties',
      permissions: ['file.read', 'file.read-content'],
    });
    const content = await waitFor(
      () => {
        const element = screen.getByTestId('code-editor').querySelector<HTMLElement>('.cm-content');
        expect(element).toHaveAttribute('contenteditable', 'false');
        return element as HTMLElement;
      },
      { timeout: 15_000 },
    );
    expect(content).toHaveAttribute('tabindex', '0');
    screen.getByRole('navigation', { name: 'Current directory' }).querySelector('a')?.focus();
    for (let step = 0; step < 20 && document.activeElement !== content; step += 1) await user.tab();
    expect(content).toHaveFocus();
  });

  it('keeps Tab for indenting, and lets Escape then Tab through to the browser (focus leaves)', async () => {
    const { content } = await openEditor();
    content.focus();
    // CodeMirror reads keyCode, which user-event leaves at 0 in jsdom: fireEvent sets it. fireEvent answers
    // false when the key's default action (the browser moving focus) was prevented.
    const tab = () => fireEvent.keyDown(content, { key: 'Tab', code: 'Tab', keyCode: 9 });
    expect(tab()).toBe(false);
    fireEvent.keyDown(content, { key: 'Escape', code: 'Escape', keyCode: 27 });
    expect(tab()).toBe(true);
    // Escape is a way out, not a mode: after any other key, Tab indents again.
    fireEvent.keyDown(content, { key: 'ArrowDown', code: 'ArrowDown', keyCode: 40 });
    expect(tab()).toBe(false);
  });

  it('draws a visible focus ring on the focused editor', async () => {
    const { content } = await openEditor();
    content.focus();
    const editor = content.closest('.cm-editor') as HTMLElement;
    await waitFor(() => expect(editor).toHaveClass('cm-focused'));
    // jsdom computes no outlines: look for the theme rule that applies to this editor while it is focused.
    const rules = Array.from(document.styleSheets).flatMap((sheet) =>
      Array.from(sheet.cssRules, (rule) => rule.cssText),
    );
    const ring = rules
      .map((rule) =>
        /^\.(\S+)\.cm-focused \{ outline: 2px solid #38bdf8; outline-offset: -2px; \}$/.exec(rule),
      )
      .find((match) => match !== null);
    expect(ring).toBeDefined();
    expect(editor).toHaveClass(ring?.[1] as string);
  });
});

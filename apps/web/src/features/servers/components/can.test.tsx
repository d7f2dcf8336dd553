import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { LoadedServer } from '@/features/servers/api/servers';
import { toServer } from '@/features/servers/api/transformers';
import { Can } from '@/features/servers/components/can';
import { ServerContext } from '@/features/servers/hooks/use-server';
import { renderWithI18n } from '@/testing/render-app';
import { serverDetail } from '@/testing/server-fixtures';

function renderWith(permissions: string[], ui: React.ReactNode) {
  const loaded: LoadedServer = { server: toServer(serverDetail().attributes), isOwner: false, permissions };
  return renderWithI18n(<ServerContext.Provider value={loaded}>{ui}</ServerContext.Provider>);
}

describe('Can', () => {
  it.each([
    [['*'], 'backup.delete', undefined, true],
    [['control.start'], 'control.start', undefined, true],
    [['control.start'], 'control.stop', undefined, false],
    [['file.read'], 'file.*', undefined, true],
    [['control.start'], ['control.start', 'control.stop'], false, false],
    [['control.start'], ['control.start', 'control.stop'], true, true],
    [['control.start', 'control.stop'], ['control.start', 'control.stop'], false, true],
    [[], ['settings.*', 'file.sftp'], true, false],
  ])('held %j, wanted %j (any: %s) → shown %s', (held, action, matchAny, shown) => {
    renderWith(
      held,
      <Can action={action} matchAny={matchAny} fallback={<p>Not for you</p>}>
        <p>Secret</p>
      </Can>,
    );
    expect(screen.queryByText('Secret') !== null).toBe(shown);
    expect(screen.queryByText('Not for you') !== null).toBe(!shown);
  });
});

import { ClientEvent } from '@aerie/shared/console/socket-events';
import { type KeyboardEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCommandHistory } from '@/features/console/hooks/use-command-history';
import { useConsoleSocket } from '@/features/console/hooks/use-console-socket';
import { useServer } from '@/features/servers/hooks/use-server';
import { useServerStateStore } from '@/features/servers/stores/server-state-store';

/** The line under the terminal: Enter sends `send command`, up and down walk the last 32 commands. */
export function CommandInput() {
  const { t } = useTranslation('server');
  const server = useServer();
  const socket = useConsoleSocket();
  const connected = useServerStateStore((state) => state.connected);
  const history = useCommandHistory(server.uuid);
  const [value, setValue] = useState('');

  const handleKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowUp') {
      event.preventDefault();
      setValue(history.older());
    } else if (event.key === 'ArrowDown') {
      event.preventDefault();
      setValue(history.newer());
    } else if (event.key === 'Enter' && value.trim() !== '') {
      event.preventDefault();
      socket?.send(ClientEvent.sendCommand, value);
      history.push(value);
      setValue('');
    }
  };

  return (
    // A command line, like the output above it, is left to right in every language.
    <div dir="ltr" className="relative rounded-b-xl border border-t-0 border-ink-800 bg-[#0c1015]">
      <span
        aria-hidden="true"
        className="absolute inset-y-0 inset-s-3 flex items-center font-mono text-ink-500"
      >
        $
      </span>
      <input
        type="text"
        aria-label={t('console.command.label')}
        placeholder={t('console.command.placeholder')}
        autoCorrect="off"
        autoCapitalize="none"
        spellCheck={false}
        disabled={!connected}
        value={value}
        onChange={(event) => setValue(event.target.value)}
        onKeyDown={handleKeyDown}
        className="w-full bg-transparent py-2.5 pe-3 ps-8 font-mono text-sm text-ink-100 placeholder:text-ink-600 focus:outline-none disabled:opacity-60"
      />
    </div>
  );
}

import '@xterm/xterm/css/xterm.css';
import { ClientEvent, DaemonEvent, isPowerState } from '@aerie/shared/console/socket-events';
import { FitAddon } from '@xterm/addon-fit';
import { type ITerminalInitOnlyOptions, type ITerminalOptions, Terminal } from '@xterm/xterm';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useConsoleSocket } from '@/features/console/hooks/use-console-socket';
import { useServer } from '@/features/servers/hooks/use-server';
import { useServerStateStore } from '@/features/servers/stores/server-state-store';

/** Bold yellow, like Pterodactyl's `container@pterodactyl~`: marks what the panel and daemon say, not the game. */
export const terminalPrelude = '\u001b[1m\u001b[33mcontainer@aerie~ \u001b[0m';
const reset = '\u001b[0m';
const errorStyle = '\u001b[1m\u001b[41m';

const options: ITerminalOptions & ITerminalInitOnlyOptions = {
  disableStdin: true,
  cursorStyle: 'underline',
  cursorInactiveStyle: 'none',
  allowTransparency: true,
  convertEol: true,
  fontSize: 12,
  fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Monaco, Consolas, monospace',
  rows: 30,
  scrollback: 2000,
  theme: {
    background: '#10151b',
    foreground: '#d6dde6',
    cursor: 'transparent',
    selectionBackground: '#facc1566',
    black: '#000000',
    red: '#e5534b',
    green: '#9ece58',
    yellow: '#f6e05e',
    blue: '#4a7fe8',
    magenta: '#bb80b3',
    cyan: '#2ddafd',
    white: '#d0d0d0',
    brightBlack: '#5c6773',
    brightRed: '#ff5370',
    brightGreen: '#c3e88d',
    brightYellow: '#ffcb6b',
    brightBlue: '#82aaff',
    brightMagenta: '#c792ea',
    brightCyan: '#89ddff',
    brightWhite: '#ffffff',
  },
};

// A line's own newline would leave an empty row under it; the reset stops its colours leaking into the next.
const asLine = (line: string) => `${line.replace(/(?:\r\n|\r|\n)$/, '')}${reset}`;

/** How many of the last lines the screen-reader log keeps. */
export const SPOKEN_LINES = 20;
// CSI (colours, cursor moves) and OSC (titles, links) sequences, which a screen reader would spell out.
// biome-ignore lint/suspicious/noControlCharactersInRegex: escape sequences are what this removes
const ESCAPES = /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)?|\u001b[@-_]/g;
/** The text of a terminal write, one entry per non-empty line, without escape sequences. */
const spokenLines = (text: string) =>
  text
    .replace(ESCAPES, '')
    .split(/\r\n|\r|\n/)
    .map((line) => line.trimEnd())
    .filter((line) => line !== '');

/**
 * The drawn terminal is hidden from screen readers (xterm.js marks its rows aria-hidden); what it writes is mirrored,
 * as plain text, into a visually hidden polite log of the last SPOKEN_LINES lines, so new output is read out without
 * interrupting. Lines are added in batches (one render per 100 ms at most) so a chatty server cannot flood React.
 */
function useSpokenLog() {
  const [lines, setLines] = useState<{ id: number; text: string }[]>([]);
  const pending = useRef<string[]>([]);
  const nextId = useRef(0);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);

  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );

  const say = useCallback((text: string) => {
    pending.current.push(...spokenLines(text));
    timer.current ??= setTimeout(() => {
      timer.current = null;
      const added = pending.current.splice(0).slice(-SPOKEN_LINES);
      setLines((shown) =>
        [...shown, ...added.map((line) => ({ id: nextId.current++, text: line }))].slice(-SPOKEN_LINES),
      );
    }, 100);
  }, []);
  const clear = useCallback(() => {
    pending.current = [];
    setLines([]);
  }, []);
  return { lines, say, clear };
}

/**
 * The console: an xterm.js terminal showing console output as it comes (ANSI colours, 2,000 lines of scrollback),
 * daemon messages and state changes after the prelude, installer and transfer output. On every (re)connect it
 * starts afresh and asks for the last lines. Screen readers get the same lines in a polite log (useSpokenLog).
 */
export function ConsoleTerminal() {
  const { t } = useTranslation('server');
  const socket = useConsoleSocket();
  const connected = useServerStateStore((state) => state.connected);
  const server = useServer();
  const host = useRef<HTMLDivElement>(null);
  const [terminal, setTerminal] = useState<Terminal | null>(null);
  const transferring = useRef(server.isTransferring);
  transferring.current = server.isTransferring;
  const spoken = useSpokenLog();
  const { say, clear } = spoken;

  useEffect(() => {
    if (!host.current) return;
    const instance = new Terminal(options);
    const fit = new FitAddon();
    instance.loadAddon(fit);
    instance.open(host.current);
    const handleResize = () => fit.fit();
    handleResize();
    window.addEventListener('resize', handleResize);
    setTerminal(instance);
    return () => {
      window.removeEventListener('resize', handleResize);
      instance.dispose();
      setTerminal(null);
    };
  }, []);

  useEffect(() => {
    if (!terminal || !socket) return;
    const writeln = (text: string) => {
      terminal.writeln(text);
      say(text);
    };
    const write = (line = '') => writeln(asLine(line));
    const unsubscribe = [
      socket.on(DaemonEvent.consoleOutput, write),
      socket.on(DaemonEvent.installOutput, write),
      socket.on(DaemonEvent.transferLogs, write),
      socket.on(DaemonEvent.daemonMessage, (line = '') => writeln(`${terminalPrelude}${asLine(line)}`)),
      socket.on(DaemonEvent.daemonError, (line = '') =>
        writeln(`${terminalPrelude}${errorStyle}${asLine(line)}`),
      ),
      socket.on(DaemonEvent.status, (status = '') => {
        // The daemon's state word, in the page's language when it is one of the four (English keeps the word).
        const state = isPowerState(status) ? t(`console.terminal.states.${status}`) : status;
        writeln(`${terminalPrelude}${t('console.terminal.marked_as', { status: state })}${reset}`);
      }),
    ];
    return () => {
      for (const off of unsubscribe) off();
    };
  }, [terminal, socket, t, say]);

  useEffect(() => {
    if (!terminal || !socket || !connected) return;
    // A transfer's logs come from the new node after a reconnect: keep what the old one said.
    if (!transferring.current) {
      terminal.clear();
      clear();
    }
    socket.send(ClientEvent.sendLogs);
  }, [terminal, socket, connected, clear]);

  return (
    <section
      aria-label={t('console.terminal.label')}
      className="overflow-hidden rounded-t-xl border border-ink-800 bg-[#10151b] p-2"
    >
      {/* Game output is left to right in every language. */}
      <div ref={host} dir="ltr" data-testid="console-terminal" className="h-[28rem] min-h-0" />
      <div role="log" aria-live="polite" aria-label={t('console.terminal.output_label')} className="sr-only">
        {spoken.lines.map((line) => (
          <p key={line.id}>{line.text}</p>
        ))}
      </div>
    </section>
  );
}

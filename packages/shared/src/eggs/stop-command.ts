/**
 * How the daemon stops a server, from the egg's `config.stop`: a console command, or `^SIGNAL`.
 * Wings turns `^C` into SIGKILL (it only knows SIGABRT, SIGINT and SIGTERM by full name), which kills
 * servers that meant Ctrl-C; we read `^C` as SIGINT, what its authors intended.
 */
export type StopSignal = 'SIGINT' | 'SIGTERM' | 'SIGABRT' | 'SIGHUP' | 'SIGQUIT' | 'SIGKILL';

export type StopAction = { type: 'command'; value: string } | { type: 'signal'; value: StopSignal };

const signals: readonly StopSignal[] = ['SIGINT', 'SIGTERM', 'SIGABRT', 'SIGHUP', 'SIGQUIT', 'SIGKILL'];

export function parseStopCommand(stop: string): StopAction {
  if (!stop.startsWith('^')) return { type: 'command', value: stop };
  const name = stop.slice(1).trim().toUpperCase();
  if (name === 'C') return { type: 'signal', value: 'SIGINT' };
  const signal = name.startsWith('SIG') ? name : `SIG${name}`;
  // Like Wings, a signal we do not know ends the process for sure rather than not at all.
  return { type: 'signal', value: signals.find((known) => known === signal) ?? 'SIGKILL' };
}

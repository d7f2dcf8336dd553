import type { DaemonPowerBody } from '@aerie/shared/daemon/remote-wire';
import type { Permission } from '@aerie/shared/permissions/permissions';

export type PowerSignal = DaemonPowerBody['action'];

export const powerSignals: readonly PowerSignal[] = ['start', 'stop', 'restart', 'kill'];

const signalPermission: Record<PowerSignal, Permission> = {
  start: 'control.start',
  stop: 'control.stop',
  kill: 'control.stop',
  restart: 'control.restart',
};

/**
 * The permission a power signal needs (Pterodactyl's SendPowerRequest): kill counts as stop. Anything else —
 * a missing or unknown signal — needs a permission nobody holds, so a subuser is refused (403) before the
 * owner's validation error (422) could tell it which signals exist.
 */
export function powerPermission(signal: unknown): Permission | null {
  const trimmed = typeof signal === 'string' ? signal.trim() : signal;
  return powerSignals.find((known) => known === trimmed) ? signalPermission[trimmed as PowerSignal] : null;
}

import type { RuntimeAllocations } from '@aerie/daemon/runtime/runtime';
import type { AllowedDestination } from './game-network-plan';
import { KernelNetwork } from './kernel-network';
import { UserModeNetwork } from './user-mode-network';

/**
 * A network namespace per game server, however it is made: what the sandbox needs of it, the same for a root
 * daemon (kernel veth + nftables) and an unprivileged one (user-mode networking with slirp4netns).
 */
export interface GameNetwork {
  /** The start-up log's words for it, after "network: ". */
  describe(): string;
  /** A read-only file to show inside the sandbox instead of the host's resolv.conf, if the game needs another. */
  readonly resolvConfBind: { source: string; target: string } | undefined;
  /**
   * The uid:gid bubblewrap should show the game, when the namespace it joins would otherwise make it root there
   * (a user-mode namespace maps the daemon's uid to its root).
   */
  readonly sandboxIdentity: { uid: number; gid: number } | undefined;
  /**
   * Makes the server's namespace for one run with its allocations published; the command prefix that runs what
   * follows inside it.
   * @throws PortTakenError when one of the ports is held elsewhere
   */
  enter(uuid: string, allocations: RuntimeAllocations | undefined): Promise<string[]>;
  /** Ends the run's namespace and its published ports (nothing happens when there is none). */
  release(uuid: string): Promise<void>;
  /**
   * At boot, once running games are adopted: ends every namespace (and published port) of a run that is not in
   * `running`, such as a server deleted while no daemon was there. @returns how many it ended
   */
  sweep(running: ReadonlySet<string>): Promise<number>;
}

/**
 * The network namespace a daemon can give its servers: the kernel's own for root, user-mode (slirp4netns) for
 * anyone else; or why games share the host's network here.
 */
export async function detectGameNetwork(options: {
  allowed: readonly AllowedDestination[];
  find: (name: string) => string | undefined;
  dataDirectory: string;
}): Promise<GameNetwork | string> {
  if (process.getuid?.() === 0) return KernelNetwork.detect(options);
  return UserModeNetwork.detect(options);
}

import { EventEmitter } from 'node:events';
import { wingsEnvironment } from '@aerie/daemon/runtime/wings-environment';
import type {
  ConsoleServer,
  ConsoleServerEvents,
  PowerAction,
  ServerStats,
} from '@aerie/daemon/server/console-server';
import { GameServer } from '@aerie/daemon/server/game-server';
import { DEMO_SERVER, nodeStartup, TEST_LIMITS } from '@aerie/daemon/testing/server-fixtures';
import { testProcessRuntime } from '@aerie/daemon/testing/test-run-directory';
import { parseStopCommand } from '@aerie/shared/eggs/stop-command';

const RECENT_LINES = 150;

/**
 * Test only: a real ConsoleServer (the demo game in a real process through GameServer and ProcessRuntime) until
 * daemon-core's managed server is there. It keeps the last lines, sends stats every second while running, and
 * lets a test flag it installing/suspended, delete it or report an error, as the managed server would.
 */
export class DemoConsoleServer extends EventEmitter<ConsoleServerEvents> implements ConsoleServer {
  readonly uuid: string;
  readonly game: GameServer;
  isInstalling = false;
  isTransferring = false;
  isSuspended = false;
  readonly #lines: string[] = [];
  #statsTimer: NodeJS.Timeout | undefined;

  constructor(options: { uuid: string; directory: string; script?: string }) {
    super();
    this.uuid = options.uuid;
    const invocation = nodeStartup(options.script ?? DEMO_SERVER);
    this.game = new GameServer({
      uuid: options.uuid,
      directory: options.directory,
      invocation,
      environment: wingsEnvironment({
        invocation,
        memoryMb: 0,
        ip: '127.0.0.1',
        port: 0,
        variables: { P_SERVER_UUID: options.uuid },
      }),
      image: '~process',
      limits: TEST_LIMITS,
      allocations: { default: { ip: '127.0.0.1', port: 0 }, mappings: {} },
      done: 'Server started on ',
      stop: parseStopCommand('stop'),
      createRuntime: () => testProcessRuntime(),
      crashTimeoutMs: 60_000,
    });
    this.game.on('output', (line) => {
      this.#lines.push(line);
      if (this.#lines.length > RECENT_LINES) this.#lines.shift();
      this.emit('console output', line);
    });
    this.game.on('daemon', (line) => this.emit('daemon message', line));
    this.game.on('status', (state) => {
      this.emit('status', state);
      if (state === 'starting')
        this.#statsTimer ??= setInterval(() => this.emit('stats', this.stats()), 1000);
      if (state === 'offline') {
        clearInterval(this.#statsTimer);
        this.#statsTimer = undefined;
        this.emit('stats', this.stats());
      }
    });
  }

  get state() {
    return this.game.state;
  }

  power(action: PowerAction, waitMs?: number): Promise<void> {
    return this.game.power(action, waitMs);
  }

  sendCommand(command: string): void {
    this.game.sendCommand(command);
  }

  recentLogs(): readonly string[] {
    return [...this.#lines];
  }

  stats(): ServerStats {
    return {
      memory_bytes: 0,
      memory_limit_bytes: 0,
      cpu_absolute: 0,
      network: { rx_bytes: 0, tx_bytes: 0 },
      uptime: this.game.uptimeMs,
      state: this.game.state,
      disk_bytes: 0,
    };
  }

  /** Ends the process and the stats timer. */
  async dispose(): Promise<void> {
    await this.game.kill();
    clearInterval(this.#statsTimer);
    this.#statsTimer = undefined;
  }
}

import type { RuntimeAllocations, RuntimeLimits } from '@aerie/daemon/runtime/runtime';
import { wingsEnvironment } from '@aerie/daemon/runtime/wings-environment';
import type { DaemonServerConfiguration } from '@aerie/shared/daemon/remote-wire';
import type { GameServerOptions } from './game-server';

/** What a GameServer takes from the panel's configuration (everything but its directory and runtime). */
export type ConfiguredSettings = Pick<
  GameServerOptions,
  'invocation' | 'environment' | 'image' | 'limits' | 'allocations' | 'done' | 'stripAnsi' | 'stop'
>;

export function runtimeLimits(build: DaemonServerConfiguration['settings']['build']): RuntimeLimits {
  return {
    memoryMb: build.memory_limit,
    swapMb: build.swap,
    cpuPercent: build.cpu_limit,
    threads: build.threads,
    ioWeight: build.io_weight,
    oomDisabled: build.oom_disabled,
    diskMb: build.disk_space,
  };
}

/** The panel's configuration in the GameServer's terms, with the environment Wings builds. */
export function configuredSettings(configuration: DaemonServerConfiguration): ConfiguredSettings {
  const { settings, process_configuration: processConfiguration } = configuration;
  const allocations: RuntimeAllocations = {
    default: settings.allocations.default,
    mappings: settings.allocations.mappings,
  };
  return {
    invocation: settings.invocation,
    environment: wingsEnvironment({
      invocation: settings.invocation,
      memoryMb: settings.build.memory_limit,
      ip: settings.allocations.default.ip,
      port: settings.allocations.default.port,
      variables: settings.environment,
    }),
    image: settings.container.image,
    limits: runtimeLimits(settings.build),
    allocations,
    done: processConfiguration.startup.done,
    stripAnsi: processConfiguration.startup.strip_ansi,
    stop: processConfiguration.stop,
  };
}

/** Wings' disk limit: MB × 1024 × 1024 (memory uses × 1,000,000); 0 = unlimited. */
export const diskLimitBytes = (configuration: DaemonServerConfiguration) =>
  configuration.settings.build.disk_space * 1024 * 1024;

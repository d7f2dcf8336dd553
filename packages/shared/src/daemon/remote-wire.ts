/**
 * The panel ↔ daemon wire (reference/wings.md §1.2–1.4), shared by the panel's /api/remote routes and daemon
 * client and by the daemon's panel client and routes. snake_case as on the wire.
 *
 * Auth: daemon → panel sends `Authorization: Bearer <token_id>.<token>`; panel → daemon sends
 * `Authorization: Bearer <token>` (the node token alone, as Wings expects).
 */
import type { StopAction } from '../eggs/stop-command';

/** Wings' server settings object (`settings` of GET /api/remote/servers/{uuid}). */
export interface DaemonServerSettings {
  uuid: string;
  meta: { name: string; description: string };
  suspended: boolean;
  /** Egg variables with their server values, plus P_SERVER_UUID, P_SERVER_LOCATION, P_SERVER_ALLOCATION_LIMIT. */
  environment: Record<string, string | number | boolean | null>;
  /** The startup command with `{{VAR}}` placeholders. */
  invocation: string;
  skip_egg_scripts: boolean;
  build: {
    /** MB; 0 = unlimited. */
    memory_limit: number;
    /** MB; -1 = unlimited. */
    swap: number;
    io_weight: number;
    /** % of one core; 0 = unlimited. */
    cpu_limit: number;
    threads: string | null;
    /** MB; 0 = unlimited. */
    disk_space: number;
    oom_disabled: boolean;
  };
  container: { image: string };
  allocations: {
    force_outgoing_ip: boolean;
    default: { ip: string; port: number };
    mappings: Record<string, number[]>;
  };
  mounts: { source: string; target: string; read_only: boolean }[];
  egg: { id: string; file_denylist: string[] };
  labels: Record<string, string>;
}

/** `process_configuration`: how to tell the server is up and how to stop it. */
export interface DaemonProcessConfiguration {
  startup: { done: string[]; user_interaction: string[]; strip_ansi: boolean };
  /** Already parsed: `^C` arrives as `{type:'signal', value:'SIGINT'}` (a departure from Wings, which kills). */
  stop: StopAction;
  configs: {
    file: string;
    parser: string;
    /** `if_value`: replace only when the current value is this one (an egg's nested `find` entry). */
    replace: { match: string; if_value?: string; replace_with: unknown }[];
  }[];
}

/** GET /api/remote/servers/{uuid} */
export interface DaemonServerConfiguration {
  settings: DaemonServerSettings;
  process_configuration: DaemonProcessConfiguration;
}

/** GET /api/remote/servers?page=&per_page= */
export interface DaemonServerConfigurationPage {
  data: (DaemonServerConfiguration & { uuid: string })[];
  meta: { current_page: number; last_page: number; per_page: number; total: number };
}

/** GET /api/remote/servers/{uuid}/install */
export interface DaemonInstallScript {
  container_image: string;
  entrypoint: string;
  script: string;
}

/** POST /api/remote/servers/{uuid}/install */
export interface DaemonInstallStatus {
  successful: boolean;
  reinstall: boolean;
}

/** POST /api/servers (panel → daemon): create the server here and install it. */
export interface DaemonCreateServerBody {
  uuid: string;
  start_on_completion: boolean;
}

/** POST /api/servers/{uuid}/power */
export interface DaemonPowerBody {
  action: 'start' | 'stop' | 'restart' | 'kill';
  wait_seconds?: number;
}

/** Wings' error body: `{"error": "<message>"}` (plus request_id). */
export interface DaemonErrorBody {
  error: string;
  request_id?: string;
}

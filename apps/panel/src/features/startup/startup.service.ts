import type { DaemonClient } from '@aerie/panel/daemon-client/daemon-client';
import type { Db } from '@aerie/panel/db/database';
import { type ActivityLog, serverActivity } from '@aerie/panel/features/activity/activity-log';
import { syncServerQuietly } from '@aerie/panel/features/servers/daemon-sync';
import { buildInvocation } from '@aerie/panel/features/servers/invocation';
import type { ServerAccess } from '@aerie/panel/features/servers/server-access';
import { eggDockerImages } from '@aerie/panel/features/servers/server-egg-images';
import { badRequest, validationFailed } from '@aerie/panel/http/errors';
import type { Log } from '@aerie/panel/logging/log';
import { checkVariableRules } from '@aerie/shared/eggs/egg-variable-rules';
import { startupMessages } from '@aerie/shared/startup/startup-bodies';
import { toValidationErrors } from '@aerie/shared/validation/validation-errors';
import {
  primaryAddress,
  type StartupVariable,
  startupVariables,
  storeVariableValue,
} from './startup.repository';

export interface StartupView {
  /** The variables a user may see, in the egg's order. */
  variables: StartupVariable[];
  startupCommand: string;
  rawStartupCommand: string;
  dockerImages: Record<string, string>;
}

/**
 * A value as the variable's rules judge it: text as sent, numbers as their decimal text, booleans as "1"/"0"
 * (what PHP makes of them), and null or "" as no value. Lists and objects are not a value an environment
 * variable can hold.
 */
function valueText(value: unknown): string | null | { invalid: true } {
  if (value === null || value === undefined || value === '') return null;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value === 'boolean') return value ? '1' : '0';
  return { invalid: true };
}

/** The Startup page (reference §7.2 "Startup and settings"): the command, the images and the variables. */
export class StartupService {
  constructor(
    private readonly deps: {
      db: Db;
      daemon: DaemonClient;
      clock: () => Date;
      log: Log;
      activity: ActivityLog;
    },
  ) {}

  async view(access: ServerAccess): Promise<StartupView> {
    const { server } = access;
    const [variables, images] = await Promise.all([
      startupVariables(this.deps.db, server),
      eggDockerImages(this.deps.db, server.eggId),
    ]);
    return {
      variables: variables.filter((variable) => variable.userViewable),
      startupCommand: await this.#command(access, variables),
      rawStartupCommand: server.startup,
      dockerImages: images,
    };
  }

  /**
   * Sets the server's value of one variable the user may edit, checked against the variable's own rules; the
   * daemon is told, so the next start runs with it. A new value is logged (`server:startup.edit`
   * {variable, old, new}, null standing for no value).
   * @throws HttpError 400 when the variable is unknown or hidden, or read-only; 422 when its rules refuse the value
   */
  async updateVariable(
    access: ServerAccess,
    key: string,
    value: unknown,
  ): Promise<{ variable: StartupVariable; startupCommand: string; rawStartupCommand: string }> {
    const { server } = access;
    const variables = await startupVariables(this.deps.db, server);
    const variable = variables.find((candidate) => candidate.envVariable === key);
    if (!variable?.userViewable) throw badRequest(startupMessages.variableMissing);
    if (!variable.userEditable) throw badRequest(startupMessages.variableReadOnly);
    const text = valueText(value);
    const issues =
      typeof text === 'object' && text !== null
        ? [{ path: ['value'], message: 'string' }]
        : checkVariableRules(['value'], variable.rules, text);
    if (issues.length > 0) throw validationFailed(toValidationErrors(issues));
    const stored = text as string | null;
    await storeVariableValue(this.deps.db, server.id, variable.id, stored ?? '', this.deps.clock());
    // An empty stored value is no value, as the answer shows it.
    const before = variable.serverValue === '' ? null : variable.serverValue;
    if (stored !== before) {
      await this.deps.activity.record(this.deps.db, {
        event: 'server:startup.edit',
        ...serverActivity(access),
        properties: { variable: variable.envVariable, old: before, new: stored },
      });
    }
    await syncServerQuietly(this.deps, access.node, server.uuid);
    const updated = { ...variable, serverValue: stored };
    const all = variables.map((candidate) => (candidate.id === variable.id ? updated : candidate));
    return {
      variable: updated,
      startupCommand: await this.#command(access, all),
      rawStartupCommand: server.startup,
    };
  }

  async #command(access: ServerAccess, variables: StartupVariable[]): Promise<string> {
    const { ip, port } = await primaryAddress(this.deps.db, access.server.allocationId);
    return buildInvocation(access.server.startup, {
      memory: access.server.memory,
      ip,
      port,
      variables,
      hideAllValues: false,
    });
  }
}

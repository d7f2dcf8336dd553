import type { ServerVariableRecord } from './server-relations';

/**
 * The startup command as a user may see it: `{{SERVER_MEMORY}}`, `{{SERVER_IP}}` and `{{SERVER_PORT}}` always
 * filled in, each egg variable replaced by its value, or by `[hidden]` when it is not user-viewable or the user
 * may not read the startup at all.
 */
export function buildInvocation(
  startup: string,
  input: {
    memory: number;
    ip: string;
    port: number;
    variables: readonly ServerVariableRecord[];
    hideAllValues: boolean;
  },
): string {
  const replacements: [string, string][] = [
    ['{{SERVER_MEMORY}}', String(input.memory)],
    ['{{SERVER_IP}}', input.ip],
    ['{{SERVER_PORT}}', String(input.port)],
    ...input.variables.map((variable): [string, string] => [
      `{{${variable.envVariable}}}`,
      variable.userViewable && !input.hideAllValues
        ? (variable.serverValue ?? variable.defaultValue)
        : '[hidden]',
    ]),
  ];
  return replacements.reduce((command, [find, value]) => command.replaceAll(find, value), startup);
}

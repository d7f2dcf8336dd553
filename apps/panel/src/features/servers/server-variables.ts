import type { EggVariable } from '@aerie/panel/features/eggs/egg-lookups';
import { validationFailed } from '@aerie/panel/http/errors';
import { checkVariableRules } from '@aerie/shared/eggs/egg-variable-rules';
import { toValidationErrors } from '@aerie/shared/validation/validation-errors';

const asText = (value: unknown): string | null =>
  value === undefined || value === null ? null : typeof value === 'string' ? value : JSON.stringify(value);

/**
 * Validates `environment` against every variable of the egg at admin level (hidden and read-only ones too), each
 * by its own rule string, as upstream's VariableValidatorService.
 * @returns the value to store per variable: the sent one, or "" when absent (upstream stores no default)
 * @throws HttpError 422 with `environment.<ENV>` entries named "<Variable name> variable"
 */
export function validateEnvironment(
  variables: EggVariable[],
  environment: Record<string, unknown>,
): Map<number, string> {
  const issues = variables.flatMap((variable) =>
    checkVariableRules(
      ['environment', variable.envVariable],
      variable.rules,
      asText(environment[variable.envVariable]),
    ),
  );
  if (issues.length > 0) {
    const names = Object.fromEntries(
      variables.map((variable) => [`environment.${variable.envVariable}`, `${variable.name} variable`]),
    );
    throw validationFailed(toValidationErrors(issues, [], names));
  }
  return new Map(variables.map((variable) => [variable.id, asText(environment[variable.envVariable]) ?? '']));
}

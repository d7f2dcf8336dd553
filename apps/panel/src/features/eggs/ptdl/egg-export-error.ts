/** Why an egg file was refused; the panel answers 422 for `invalid_egg`, 400 for the others. */
export type EggExportErrorCode =
  | 'too_large'
  | 'invalid_json'
  | 'invalid_yaml'
  | 'not_an_object'
  | 'unsupported_version'
  | 'invalid_egg';

export interface EggExportIssue {
  /** Where in the file, e.g. `variables[2].env_variable`; empty for the file as a whole. */
  path: string;
  message: string;
}

const NOT_AN_EGG = 'This file is not a Pterodactyl or Pelican egg export';

/** The one error an egg import throws; `message` is meant to be shown to the administrator as is. */
export class EggExportError extends Error {
  override readonly name = 'EggExportError';

  constructor(
    readonly code: EggExportErrorCode,
    message: string,
    readonly issues: readonly EggExportIssue[] = [],
  ) {
    super(message);
  }

  static tooLarge(bytes: number, limit: number): EggExportError {
    return new EggExportError(
      'too_large',
      `This egg file is too large (${bytes} bytes): at most ${limit} bytes (${limit / 1024 / 1024} MiB) are read.`,
    );
  }

  static invalidJson(reason: string): EggExportError {
    return new EggExportError('invalid_json', `${NOT_AN_EGG}: it is not valid JSON (${reason}).`);
  }

  static invalidYaml(reason: string): EggExportError {
    return new EggExportError(
      'invalid_yaml',
      `${NOT_AN_EGG}: it is neither JSON nor valid YAML (${reason}).`,
    );
  }

  static notAnObject(): EggExportError {
    return new EggExportError('not_an_object', `${NOT_AN_EGG}: expected a JSON or YAML object.`);
  }

  static unsupportedVersion(found: unknown): EggExportError {
    const shown = found === undefined ? 'nothing' : JSON.stringify(found);
    return new EggExportError(
      'unsupported_version',
      `${NOT_AN_EGG}: meta.version must be PTDL_v1, PTDL_v2, PLCN_v1, PLCN_v2 or PLCN_v3 (found ${shown}).`,
    );
  }

  static invalidEgg(issues: readonly EggExportIssue[]): EggExportError {
    const list = issues.map((issue) => (issue.path ? `${issue.path} ${issue.message}` : issue.message));
    return new EggExportError('invalid_egg', `This egg export is not valid: ${list.join('; ')}.`, issues);
  }
}

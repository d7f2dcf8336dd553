/** A refusal the CLI prints as is, without a stack trace. */
export class CliError extends Error {
  override name = 'CliError';
}

/**
 * The Laravel rules an egg variable's rule string may use (`required|string|max:20`): every rule the community
 * eggs use, and the other string rules a game's setting could want. `checkVariableRules` understands each; an egg
 * variable saved through the API may use only these (upstream refuses rules Laravel does not know).
 */
export const knownVariableRules = [
  'bail',
  'sometimes',
  'required',
  'nullable',
  'present',
  'filled',
  'string',
  'integer',
  'numeric',
  'boolean',
  'accepted',
  'alpha',
  'alpha_num',
  'alpha_dash',
  'ascii',
  'lowercase',
  'uppercase',
  'min',
  'max',
  'between',
  'size',
  'gt',
  'gte',
  'lt',
  'lte',
  'digits',
  'digits_between',
  'max_digits',
  'min_digits',
  'in',
  'not_in',
  'regex',
  'not_regex',
  'starts_with',
  'ends_with',
  'doesnt_start_with',
  'doesnt_end_with',
  'url',
  'active_url',
  'ip',
  'ipv4',
  'ipv6',
  'email',
  'uuid',
  'json',
  // Not Laravel's, but community eggs use them (Laravel would throw on them): read as integer and boolean.
  'int',
  'bool',
] as const;

export type VariableRuleName = (typeof knownVariableRules)[number];

export interface ParsedVariableRule {
  name: string;
  /** What follows the first colon, untouched (a regex keeps its commas and pipes). */
  args: string;
}

/**
 * Splits a rule string at its pipes, as Laravel does, except inside a `regex:`/`not_regex:` pattern: egg authors
 * write `regex:/^(true|false)$/` meaning one rule, so a pattern whose closing delimiter has not been seen yet
 * takes the next pieces back. Blank pieces are skipped.
 */
export function parseVariableRules(rules: string): ParsedVariableRule[] {
  const pieces = rules.split('|');
  const parsed: ParsedVariableRule[] = [];
  for (let index = 0; index < pieces.length; index++) {
    let entry = (pieces[index] ?? '').trim();
    if (entry === '') continue;
    if (/^(not_)?regex:/.test(entry)) {
      while (!isClosedPattern(entry.slice(entry.indexOf(':') + 1)) && index + 1 < pieces.length) {
        index++;
        entry = `${entry}|${pieces[index]}`;
      }
    }
    const colon = entry.indexOf(':');
    parsed.push(
      colon === -1
        ? { name: entry, args: '' }
        : { name: entry.slice(0, colon), args: entry.slice(colon + 1) },
    );
  }
  return parsed;
}

/** `/…/flags` (any non-alphanumeric delimiter, PHP's rule) with its closing delimiter at the end. */
export const isClosedPattern = (source: string): boolean =>
  /^([^\w\s\\])[\s\S]*\1[a-zA-Z]*$/.test(source.trim());

/** The names in a rule string (`required|max:20` → required, max), in order. */
export const variableRuleNames = (rules: string): string[] =>
  parseVariableRules(rules).map((rule) => rule.name);

/** The first rule name of the string that `checkVariableRules` does not understand, or null. */
export const unknownVariableRule = (rules: string): string | null =>
  variableRuleNames(rules).find((name) => !(knownVariableRules as readonly string[]).includes(name)) ?? null;

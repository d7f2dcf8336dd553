import { RE2JS } from 're2js';
import type { IssueLike } from '../validation/validation-errors';
import { parseVariableRules, type VariableRuleName } from './egg-variable-rule-names';

export { knownVariableRules, unknownVariableRule, variableRuleNames } from './egg-variable-rule-names';

/**
 * Checks a server variable's value against its egg variable's Laravel rule string (`required|string|max:20`),
 * with Laravel's semantics (reference application API §4.4, client API §7.2 "Startup and settings"):
 * - an empty value is null; `required`, `filled` and `accepted` fail on it, `nullable` lets it pass every other
 *   rule, and without `nullable` the other rules judge it (`string` fails, `max` passes);
 * - `min`/`max`/`between`/`size`/`gt`… measure the number when the rules say `numeric` or `integer` and the value
 *   is one, else the length in characters;
 * - `regex` patterns are PHP's (`/…/flags`), run by RE2 (linear time whatever the pattern and the value);
 * - a rule this file does not know is ignored (the egg still imports; `unknownVariableRule` refuses it on edits).
 * @param path where the issues point: `['environment', ENV]` for the Application API, `['value']` for the page
 * @returns one issue per failed rule, for `toValidationErrors`
 */
export function checkVariableRules(
  path: string[],
  rules: string,
  raw: string | null | undefined,
): IssueLike[] {
  const value = raw === undefined || raw === '' ? null : raw;
  const parsed = parseVariableRules(rules);
  const names = new Set(parsed.map((rule) => ALIASES[rule.name] ?? rule.name));
  const issues: IssueLike[] = [];
  const fail = (message: string, params?: Record<string, unknown>) =>
    issues.push({ path, message, ...(params ? { params } : {}) });

  if (value === null) {
    for (const implicit of ['required', 'filled', 'accepted'] as const)
      if (names.has(implicit)) fail(implicit);
    if (issues.length > 0 || names.has('nullable')) return issues;
  }
  const text = value ?? '';
  const numericRules = names.has('numeric') || names.has('integer');
  const numeric = numericRules && NUMERIC.test(text);
  const size = numeric ? Number(text) : [...text].length;
  const sizeParams = (name: string, a: number, b: number, args: string): Record<string, unknown> => {
    if (name === 'between') return { min: a, max: b, numeric };
    if (name === 'min' || name === 'max' || name === 'size') return { [name]: a, numeric };
    return { value: args, numeric };
  };

  for (const { name: written, args } of parsed) {
    const name = ALIASES[written] ?? written;
    const list = args.split(',').map((part) => part.trim());
    const [a = Number.NaN, b = Number.NaN] = list.map(Number);
    const check = RULES[name as VariableRuleName];
    if (!check) continue;
    const outcome = check({ value, text, size, numeric, args, list, a, b });
    if (outcome === true) continue;
    if (outcome === 'size') fail(name, sizeParams(name, a, b, args));
    else fail(name, outcome === false ? undefined : outcome);
  }
  return issues;
}

/** Names community eggs write for Laravel's rules. */
const ALIASES: Readonly<Record<string, VariableRuleName>> = { int: 'integer', bool: 'boolean' };

const NUMERIC = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;
const INTEGER = /^[+-]?\d+$/;
const DIGITS = /^\d+$/;
const IPV4 = /^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;
const UUID = /^[\da-f]{8}-[\da-f]{4}-[\da-f]{4}-[\da-f]{4}-[\da-f]{12}$/i;
const EMAIL = /^[^\s@]+@[^\s@]+$/;

interface RuleInput {
  /** null for an empty value. */
  value: string | null;
  /** The value, "" for null. */
  text: string;
  /** What size rules compare: the number (numeric rules and a numeric value) or the length in characters. */
  size: number;
  numeric: boolean;
  args: string;
  list: string[];
  a: number;
  b: number;
}

/** true: passes; false: fails without parameters; 'size': fails with the size parameters; else the parameters. */
type Outcome = boolean | 'size' | Record<string, unknown>;

const isIpv6 = (text: string) => {
  if (!text.includes(':') || /[^\da-f:.]/i.test(text)) return false;
  try {
    return new URL(`http://[${text}]/`).hostname !== '';
  } catch {
    return false;
  }
};

const isUrl = (text: string) => {
  if (!/^[a-z][a-z\d+.-]*:\/\/[^\s]/i.test(text)) return false;
  try {
    return new URL(text).host !== '';
  } catch {
    return false;
  }
};

const isJson = (text: string) => {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
};

const withList = (ok: boolean, list: string[]): Outcome => ok || { values: list.join(', ') };

const RULES: Partial<Record<VariableRuleName, (input: RuleInput) => Outcome>> = {
  string: ({ value }) => value !== null,
  integer: ({ value }) => value !== null && INTEGER.test(value),
  numeric: ({ value }) => value !== null && NUMERIC.test(value),
  // Laravel's boolean is strict: true, false, 0, 1, "0" and "1" (a JSON true arrives here as "1").
  boolean: ({ value }) => value === '0' || value === '1',
  accepted: ({ value }) => value !== null && ['yes', 'on', '1', 'true'].includes(value),
  alpha: ({ value }) => value !== null && /^[\p{L}\p{M}]+$/u.test(value),
  alpha_num: ({ value }) => value !== null && /^[\p{L}\p{M}\p{N}]+$/u.test(value),
  alpha_dash: ({ value }) => value !== null && /^[\p{L}\p{M}\p{N}_-]+$/u.test(value),
  ascii: ({ text }) => /^[\x20-\x7e]*$/.test(text),
  lowercase: ({ value }) => value !== null && value.toLowerCase() === value,
  uppercase: ({ value }) => value !== null && value.toUpperCase() === value,
  min: ({ size, a }) => size >= a || 'size',
  max: ({ size, a }) => size <= a || 'size',
  between: ({ size, a, b }) => (size >= a && size <= b) || 'size',
  size: ({ size, a }) => size === a || 'size',
  gt: ({ size, a }) => size > a || 'size',
  gte: ({ size, a }) => size >= a || 'size',
  lt: ({ size, a }) => size < a || 'size',
  lte: ({ size, a }) => size <= a || 'size',
  digits: ({ text, a }) => (DIGITS.test(text) && text.length === a) || { size: a },
  digits_between: ({ text, a, b }) =>
    (DIGITS.test(text) && text.length >= a && text.length <= b) || { min: a, max: b },
  max_digits: ({ text, a }) => text.replace(/\D/g, '').length <= a || { max: a },
  min_digits: ({ text, a }) => text.replace(/\D/g, '').length >= a || { min: a },
  in: ({ text, list }) => list.includes(text),
  not_in: ({ text, list }) => !list.includes(text),
  regex: ({ value, args }) => value !== null && matchesPhpPattern(args, value),
  not_regex: ({ value, args }) => value !== null && !matchesPhpPattern(args, value),
  starts_with: ({ text, list }) =>
    withList(
      list.some((prefix) => text.startsWith(prefix)),
      list,
    ),
  ends_with: ({ text, list }) =>
    withList(
      list.some((suffix) => text.endsWith(suffix)),
      list,
    ),
  doesnt_start_with: ({ text, list }) => withList(!list.some((prefix) => text.startsWith(prefix)), list),
  doesnt_end_with: ({ text, list }) => withList(!list.some((suffix) => text.endsWith(suffix)), list),
  url: ({ text }) => isUrl(text),
  active_url: ({ text }) => isUrl(text),
  ip: ({ text }) => IPV4.test(text) || isIpv6(text),
  ipv4: ({ text }) => IPV4.test(text),
  ipv6: ({ text }) => isIpv6(text),
  email: ({ text }) => EMAIL.test(text),
  uuid: ({ text }) => UUID.test(text),
  json: ({ value }) => value !== null && isJson(value),
};

/** Compiled patterns by their PHP source; egg rules are few and reused on every save. */
const patterns = new Map<string, RE2JS | null>();

/**
 * `/pattern/flags` in PHP's syntax, matched with RE2 (no backtracking, so an egg's pattern cannot hold the panel's
 * thread however long the value). A pattern RE2 cannot read (look-arounds, back-references) matches nothing, so
 * such a rule refuses every value instead of running unbounded.
 */
export function matchesPhpPattern(source: string, value: string): boolean {
  let compiled = patterns.get(source);
  if (compiled === undefined) {
    compiled = compilePhpPattern(source);
    if (patterns.size > 1000) patterns.clear();
    patterns.set(source, compiled);
  }
  return compiled?.matcher(value).find() ?? false;
}

function compilePhpPattern(source: string): RE2JS | null {
  const match = /^([^\w\s\\])([\s\S]*)\1([a-zA-Z]*)$/.exec(source.trim());
  if (!match) return null;
  const flags = match[3] ?? '';
  let options = 0;
  if (flags.includes('i')) options |= RE2JS.CASE_INSENSITIVE;
  if (flags.includes('m')) options |= RE2JS.MULTILINE;
  if (flags.includes('s')) options |= RE2JS.DOTALL;
  try {
    return RE2JS.compile(match[2] ?? '', options);
  } catch {
    return null;
  }
}

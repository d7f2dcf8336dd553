import type { IssueLike } from '../validation/validation-errors';

/** The rule names `checkVariableRules` understands; an egg variable saved through the API may use only these. */
export const knownVariableRules = [
  'required',
  'nullable',
  'string',
  'integer',
  'numeric',
  'boolean',
  'alpha',
  'alpha_num',
  'alpha_dash',
  'min',
  'max',
  'between',
  'size',
  'in',
  'not_in',
  'regex',
  'digits',
] as const;

/** The names in a rule string (`required|max:20` → required, max), in order, blanks skipped. */
export const variableRuleNames = (rules: string): string[] =>
  rules
    .split('|')
    .map((entry) => entry.trim())
    .filter(Boolean)
    .map((entry) => entry.split(':')[0] ?? entry);

/** The first rule name of the string that `checkVariableRules` does not understand, or null. */
export const unknownVariableRule = (rules: string): string | null =>
  variableRuleNames(rules).find((name) => !(knownVariableRules as readonly string[]).includes(name)) ?? null;

/**
 * Checks a server variable's value against its egg variable's Laravel rule string (`required|string|max:20`),
 * as Pterodactyl's VariableValidatorService does (reference application API §4.4). The common rules are
 * understood: required, nullable, string, integer, numeric, boolean, alpha, alpha_num, alpha_dash, min, max,
 * between, size, in, not_in, regex, digits; others are ignored (their eggs still import). Like Laravel, an empty
 * value that is not required passes when the rules say `nullable`, and fails `string` otherwise.
 * @returns one issue per failed rule, for `toValidationErrors` (path `environment.<ENV>`)
 */
export function checkVariableRules(env: string, rules: string, raw: string | null | undefined): IssueLike[] {
  const value = raw === undefined || raw === '' ? null : raw;
  const parsed = rules
    .split('|')
    .map((entry) => entry.trim())
    .filter(Boolean)
    .map((entry) => {
      const colon = entry.indexOf(':');
      return colon === -1
        ? { name: entry, args: '' }
        : { name: entry.slice(0, colon), args: entry.slice(colon + 1) };
    });
  const names = new Set(parsed.map((rule) => rule.name));
  const path = ['environment', env];
  if (value === null) {
    if (names.has('required')) return [{ path, message: 'required' }];
    if (names.has('nullable')) return [];
  }
  const numeric = names.has('numeric') || names.has('integer');
  const issues: IssueLike[] = [];
  const fail = (message: string, params?: Record<string, unknown>) =>
    issues.push({ path, message, ...(params ? { params } : {}) });
  const size = () => (numeric ? Number(value) : (value ?? '').length);
  for (const { name, args } of parsed) {
    const list = args.split(',').map((part) => part.trim());
    const [a = NaN, b = NaN] = list.map(Number);
    switch (name) {
      case 'string':
        if (value === null) fail('string');
        break;
      case 'integer':
        if (value === null || !/^[+-]?\d+$/.test(value)) fail('integer');
        break;
      case 'numeric':
        if (value === null || !/^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/.test(value)) fail('numeric');
        break;
      case 'boolean':
        if (value === null || !['0', '1', 'true', 'false'].includes(value)) fail('boolean');
        break;
      case 'alpha':
        if (value === null || !/^[\p{L}\p{M}]+$/u.test(value)) fail('alpha');
        break;
      case 'alpha_num':
        if (value === null || !/^[\p{L}\p{M}\p{N}]+$/u.test(value)) fail('alpha_num');
        break;
      case 'alpha_dash':
        if (value === null || !/^[\p{L}\p{M}\p{N}_-]+$/u.test(value)) fail('alpha_dash');
        break;
      case 'min':
        if (value !== null && size() < a) fail('min', { min: a, numeric });
        break;
      case 'max':
        if (value !== null && size() > a) fail('max', { max: a, numeric });
        break;
      case 'between':
        if (value !== null && (size() < a || size() > b)) fail('between', { min: a, max: b, numeric });
        break;
      case 'size':
        if (value !== null && size() !== a) fail('size', { size: a, numeric });
        break;
      case 'digits':
        if (value === null || !/^\d+$/.test(value) || value.length !== a) fail('digits', { size: a });
        break;
      case 'in':
        if (value === null || !list.includes(value)) fail('in');
        break;
      case 'not_in':
        if (value !== null && list.includes(value)) fail('not_in');
        break;
      case 'regex':
        if (value === null || !matchesPhpRegex(args, value)) fail('regex');
        break;
      default:
        break;
    }
  }
  return issues;
}

/** `/pattern/flags` in PHP's syntax as a JS RegExp; an unreadable pattern matches nothing. */
function matchesPhpRegex(source: string, value: string): boolean {
  const match = /^(.)(.*)\1([imsux]*)$/s.exec(source);
  if (!match) return false;
  try {
    const flags = (match[3] ?? '').replace(/x/g, '');
    return new RegExp(match[2] ?? '', `${flags}u`).test(value);
  } catch {
    try {
      return new RegExp(match[2] ?? '', (match[3] ?? '').replace(/x/g, '')).test(value);
    } catch {
      return false;
    }
  }
}

/**
 * Validation messages in the wording Pterodactyl's API answers with (reference §2.2), keyed by the Laravel rule
 * name that appears in `meta.rule`. `:attribute` is the field name with underscores shown as spaces.
 */
export interface RuleParams {
  min?: number;
  max?: number;
  size?: number;
  /** The compared value of gt/gte/lt/lte. */
  value?: string;
  /** The list of starts_with/ends_with, as Laravel joins it (", "); the values of required_unless. */
  values?: string;
  /** The other field of required_unless, as its attribute name. */
  other?: string;
}

type Template = (attribute: string, params: RuleParams) => string;

export const laravelMessages = {
  required: (a) => `The ${a} field is required.`,
  string: (a) => `The ${a} must be a string.`,
  email: (a) => `The ${a} must be a valid email address.`,
  min: (a, p) => `The ${a} must be at least ${p.min} characters.`,
  max: (a, p) => `The ${a} may not be greater than ${p.max} characters.`,
  between: (a, p) => `The ${a} must be between ${p.min} and ${p.max} characters.`,
  size: (a, p) => `The ${a} must be ${p.size} characters.`,
  confirmed: (a) => `The ${a} confirmation does not match.`,
  numeric: (a) => `The ${a} must be a number.`,
  boolean: (a) => `The ${a} field must be true or false.`,
  in: (a) => `The selected ${a} is invalid.`,
  alpha_num: (a) => `The ${a} may only contain letters and numbers.`,
  alpha_dash: (a) => `The ${a} may only contain letters, numbers, and dashes.`,
  present: (a) => `The ${a} field must be present.`,
  regex: (a) => `The ${a} format is invalid.`,
  array: (a) => `The ${a} must be an array.`,
  unique: (a) => `The ${a} has already been taken.`,
  integer: (a) => `The ${a} must be an integer.`,
  exists: (a) => `The selected ${a} is invalid.`,
  required_with: (a) => `The ${a} field is required.`,
  alpha: (a) => `The ${a} may only contain letters.`,
  digits: (a, p) => `The ${a} must be ${p.size} digits.`,
  not_in: (a) => `The selected ${a} is invalid.`,
  accepted: (a) => `The ${a} must be accepted.`,
  filled: (a) => `The ${a} field is required.`,
  required_unless: (a, p) => `The ${a} field is required unless ${p.other} is in ${p.values}.`,
  not_regex: (a) => `The ${a} format is invalid.`,
  url: (a) => `The ${a} format is invalid.`,
  active_url: (a) => `The ${a} is not a valid URL.`,
  ip: (a) => `The ${a} must be a valid IP address.`,
  ipv4: (a) => `The ${a} must be a valid IPv4 address.`,
  ipv6: (a) => `The ${a} must be a valid IPv6 address.`,
  uuid: (a) => `The ${a} must be a valid UUID.`,
  json: (a) => `The ${a} must be a valid JSON string.`,
  ascii: (a) => `The ${a} must only contain single-byte alphanumeric characters and symbols.`,
  lowercase: (a) => `The ${a} must be lowercase.`,
  uppercase: (a) => `The ${a} must be uppercase.`,
  digits_between: (a, p) => `The ${a} must be between ${p.min} and ${p.max} digits.`,
  max_digits: (a, p) => `The ${a} must not have more than ${p.max} digits.`,
  min_digits: (a, p) => `The ${a} must have at least ${p.min} digits.`,
  starts_with: (a, p) => `The ${a} must start with one of the following: ${p.values}.`,
  ends_with: (a, p) => `The ${a} must end with one of the following: ${p.values}.`,
  doesnt_start_with: (a, p) => `The ${a} may not start with one of the following: ${p.values}.`,
  doesnt_end_with: (a, p) => `The ${a} may not end with one of the following: ${p.values}.`,
  gt: (a, p) => `The ${a} must be greater than ${p.value} characters.`,
  gte: (a, p) => `The ${a} must be greater than or equal ${p.value} characters.`,
  lt: (a, p) => `The ${a} must be less than ${p.value} characters.`,
  lte: (a, p) => `The ${a} must be less than or equal ${p.value} characters.`,
} satisfies Record<string, Template>;

/** Size rules worded for arrays (Laravel's `max.array`, `min.array`); `meta.rule` stays `max` / `min`. */
export const laravelArrayMessages: Partial<Record<LaravelRule, Template>> = {
  min: (a, p) => `The ${a} must have at least ${p.min} items.`,
  max: (a, p) => `The ${a} may not have more than ${p.max} items.`,
};

/** Size rules worded for numbers (Laravel's `min.numeric`…); `meta.rule` stays `min` / `max` / `between`. */
export const laravelNumericMessages: Partial<Record<LaravelRule, Template>> = {
  min: (a, p) => `The ${a} must be at least ${p.min}.`,
  max: (a, p) => `The ${a} may not be greater than ${p.max}.`,
  between: (a, p) => `The ${a} must be between ${p.min} and ${p.max}.`,
  size: (a, p) => `The ${a} must be ${p.size}.`,
  gt: (a, p) => `The ${a} must be greater than ${p.value}.`,
  gte: (a, p) => `The ${a} must be greater than or equal ${p.value}.`,
  lt: (a, p) => `The ${a} must be less than ${p.value}.`,
  lte: (a, p) => `The ${a} must be less than or equal ${p.value}.`,
};

export type LaravelRule = keyof typeof laravelMessages;

export const isLaravelRule = (value: string): value is LaravelRule => Object.hasOwn(laravelMessages, value);

/**
 * `allowed_ips` → `allowed ips`, as Laravel shows attribute names; a nested one (`feature_limits.backups`,
 * `ports.0`) is shown as its path, as Pterodactyl's answers read. `names` are a request's custom attribute
 * names (`root_admin` → "Root Administrator Status").
 */
export const attributeName = (field: string, names: Readonly<Record<string, string>> = {}) =>
  names[field] ?? (field.includes('.') ? field : field.replace(/_/g, ' '));

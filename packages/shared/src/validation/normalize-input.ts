/** Fields Laravel's TrimStrings middleware leaves alone: a password may start or end with spaces. */
const UNTRIMMED = new Set(['password', 'password_confirmation', 'current_password']);

export interface NormalizeOptions {
  /**
   * false: keep surrounding spaces (Laravel skips TrimStrings on the files routes, so a name ending in a space
   * survives); empty strings still become null.
   */
  trim?: boolean;
}

/**
 * Applies Laravel's TrimStrings and ConvertEmptyStringsToNull to a request body, so `""` (or `"  "`) fails
 * `required` exactly like a missing field. Anything that is not a JSON object is treated as an empty one.
 */
export function normalizeInput(body: unknown, options: NormalizeOptions = {}): Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return {};
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(body)) out[key] = normalizeValue(key, value, options);
  return out;
}

function normalizeValue(key: string, value: unknown, options: NormalizeOptions): unknown {
  if (typeof value === 'string') {
    const text = options.trim === false || UNTRIMMED.has(key) ? value : value.trim();
    return text === '' ? null : text;
  }
  if (Array.isArray(value)) return value.map((item) => normalizeValue(key, item, options));
  if (typeof value === 'object' && value !== null) return normalizeInput(value, options);
  return value;
}

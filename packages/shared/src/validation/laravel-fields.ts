import { z } from 'zod';
import type { LaravelRule } from './laravel-messages';
import { rule } from './rules';

/**
 * Fields of the Application API's bodies with Laravel's input semantics (reference application API §2.6):
 * `numeric` and `integer` take numbers and numeric strings (billing modules send strings), `boolean` takes
 * true/false/0/1/"0"/"1", `present` wants the key even when its value is null. Each failure's message is the rule
 * name, which `toValidationErrors` words.
 */

const missing = (value: unknown) => value === undefined || value === null;
const NUMERIC = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;
const INTEGER = /^[+-]?\d+$/;

/** A number or numeric string as a number; anything else stays as it is for the check to refuse. */
const toNumber = (pattern: RegExp) => (value: unknown) =>
  typeof value === 'string' && value.length <= 40 && pattern.test(value) ? Number(value) : value;

interface Bounds {
  min?: number;
  max?: number;
}

function bounded(schema: z.ZodNumber, { min, max }: Bounds) {
  if (min !== undefined && max !== undefined) {
    return schema.refine((value) => value >= min && value <= max, {
      error: 'between' satisfies LaravelRule,
      params: { min, max, numeric: true },
    });
  }
  let out = schema;
  if (min !== undefined) out = out.min(min, rule('min'));
  if (max !== undefined) out = out.max(max, rule('max'));
  return out;
}

const numberOf = (kind: 'numeric' | 'integer') =>
  z.number({
    error: (issue) => (missing(issue.input) ? 'required' : kind) satisfies LaravelRule,
  });

/** `required|numeric` with optional `min`/`max`/`between` (both bounds). */
export const requiredNumber = (bounds: Bounds = {}) =>
  z.preprocess(toNumber(NUMERIC), bounded(numberOf('numeric'), bounds));

/** `required|integer` with optional bounds. */
export const requiredInteger = (bounds: Bounds = {}) =>
  z.preprocess(toNumber(INTEGER), bounded(numberOf('integer').int(rule('integer')), bounds));

/** `nullable|integer` (absent or null allowed). */
export const nullableInteger = (bounds: Bounds = {}) =>
  z.preprocess(toNumber(INTEGER), bounded(numberOf('integer').int(rule('integer')), bounds).nullish());

/** `present|nullable|integer`: the key must be sent, its value may be null. */
export const presentNullableInteger = (bounds: Bounds = {}) => present(nullableInteger(bounds));

/** `boolean`: true, false, 0, 1, "0", "1" (optional unless wrapped). */
export const laravelBoolean = () =>
  z.preprocess(
    (value) => {
      if (value === 1 || value === '1') return true;
      if (value === 0 || value === '0') return false;
      return value;
    },
    z.boolean({ error: (issue) => (missing(issue.input) ? 'required' : 'boolean') satisfies LaravelRule }),
  );

/** Laravel's `present`: the key must exist in the body (null is a value). */
export const present = <T extends z.ZodType>(schema: T) =>
  z.custom<z.output<T>>().superRefine((value, ctx) => {
    if (value === undefined) {
      ctx.addIssue({ code: 'custom', message: 'present' satisfies LaravelRule });
      return;
    }
    const result = schema.safeParse(value);
    if (!result.success)
      for (const issue of result.error.issues) ctx.addIssue({ ...issue, input: value } as never);
  });

/** `required|string` with `between:min,max` characters. */
export const requiredText = (min: number, max: number) =>
  z
    .string({ error: (issue) => (missing(issue.input) ? 'required' : 'string') satisfies LaravelRule })
    .refine((value) => value.length >= min && value.length <= max, {
      error: (min > 1 ? 'between' : 'max') satisfies LaravelRule,
      params: { min, max },
    });

/** `nullable|string|max:N`. */
export const nullableText = (max: number) =>
  z
    .string({ error: 'string' satisfies LaravelRule })
    .max(max, rule('max'))
    .nullish();

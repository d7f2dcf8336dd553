import { z } from 'zod';
import type { LaravelRule } from './laravel-messages';

/**
 * zod building blocks whose error message is the Laravel rule name that failed. `toValidationErrors` turns
 * those names into the API's wording, so a schema states its rules once and both sides read them the same.
 */
const missing = (input: unknown) => input === undefined || input === null;

/** Marks a check with the rule it stands for, e.g. `.min(8, rule('min'))`. */
export const rule = (name: LaravelRule) => ({ error: name });

/** `required|string` */
export const requiredString = () =>
  z.string({ error: (issue) => (missing(issue.input) ? 'required' : 'string') satisfies LaravelRule });

/** `nullable|string` */
export const nullableString = () => z.string({ error: 'string' satisfies LaravelRule }).nullish();

/** `required|email` */
export const requiredEmail = () =>
  z.email({
    error: (issue) =>
      (issue.code === 'invalid_type' && missing(issue.input) ? 'required' : 'email') satisfies LaravelRule,
  });

/**
 * Laravel's `numeric`: integers, decimals and exponents, optionally signed. Written so that no digit can be
 * claimed by two quantifiers (the fractional digits only follow a dot): matching is linear in the input. The
 * older `\d+\.?\d*` split a run of digits between `\d+` and `\d*` every possible way before failing, so a
 * 128,000-digit `mode` held the panel's only thread for 30 s.
 */
const NUMERIC = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;
const numberAsString = (value: unknown) =>
  typeof value === 'number' && Number.isFinite(value) ? String(value) : value;

/** `nullable|numeric`: numbers and numeric strings pass, as Laravel's `numeric` does; the value stays a string. */
export const nullableNumeric = () =>
  z.preprocess(
    numberAsString,
    z
      .string({ error: 'numeric' satisfies LaravelRule })
      .regex(NUMERIC, rule('numeric'))
      .nullish(),
  );

/** `required|numeric`, the value kept as a string (a number becomes its decimal text). */
export const requiredNumeric = () =>
  z.preprocess(
    numberAsString,
    z
      .string({ error: (issue) => (missing(issue.input) ? 'required' : 'numeric') satisfies LaravelRule })
      .regex(NUMERIC, rule('numeric')),
  );

/** `required|array` of `item`: missing, null or empty fails `required` (as in Laravel), a non-list `array`. */
export const requiredArray = <T extends z.ZodType>(item: T) =>
  z
    .array(item, { error: (issue) => (missing(issue.input) ? 'required' : 'array') satisfies LaravelRule })
    .min(1, rule('required'));

/**
 * `between:min,max` on a string's length, as a refinement: `requiredEmail().refine(...lengthBetween(1, 191))`.
 * The bounds travel in the issue's params, so the message can name both.
 */
export const lengthBetween = (min: number, max: number) =>
  [
    (value: string) => value.length >= min && value.length <= max,
    { error: 'between' satisfies LaravelRule, params: { min, max } },
  ] as const;

import type { ApiErrorItem } from '../errors/error-envelope';
import {
  attributeName,
  isLaravelRule,
  laravelArrayMessages,
  laravelMessages,
  laravelNumericMessages,
} from './laravel-messages';

/** The part of a zod issue the mapper reads (structural, so it works with any zod version's issue type). */
export interface IssueLike {
  path: PropertyKey[];
  message: string;
  minimum?: number | bigint;
  maximum?: number | bigint;
  code?: string;
  /** What a size check measured (`string`, `array`…): arrays count items, not characters. */
  origin?: string;
  /** Bounds of custom checks, e.g. `{min: 1, max: 191}` for `between` (see rules.ts `lengthBetween`). */
  params?: Record<string, unknown>;
}

/**
 * Turns zod issues into the API's 422 entries: one per failed rule, `meta.source_field` with dots for nested
 * paths, `meta.rule` the Laravel rule name. Issues whose message is not a rule name are passed through as the
 * detail with an empty rule (Laravel does the same for errors added after its rules ran).
 * @param fieldOrder the body's fields in declaration order; entries are sorted by it, as Laravel lists them
 * @param attributeNames custom attribute names of the request (`short` → "Location Identifier")
 */
export function toValidationErrors(
  issues: readonly IssueLike[],
  fieldOrder: readonly string[] = [],
  attributeNames: Readonly<Record<string, string>> = {},
): ApiErrorItem[] {
  const rank = (issue: IssueLike) => {
    const index = fieldOrder.indexOf(String(issue.path[0] ?? ''));
    return index === -1 ? fieldOrder.length : index;
  };
  return [...issues]
    .map((issue, position) => ({ issue, position }))
    .sort((a, b) => rank(a.issue) - rank(b.issue) || a.position - b.position)
    .map(({ issue }) => toItem(issue, attributeNames));
}

function toItem(issue: IssueLike, attributeNames: Readonly<Record<string, string>>): ApiErrorItem {
  const field = issue.path.map(String).join('.');
  const attribute = attributeName(field, attributeNames);
  const numeric = issue.origin === 'number' || issue.params?.numeric === true;
  const min = issue.minimum ?? issue.params?.min;
  const max = issue.maximum ?? issue.params?.max;
  const bound = Number(issue.params?.size ?? min ?? max);
  const template = isLaravelRule(issue.message)
    ? (issue.origin === 'array' && laravelArrayMessages[issue.message]) ||
      (numeric && laravelNumericMessages[issue.message]) ||
      laravelMessages[issue.message]
    : undefined;
  const detail = template
    ? template(attribute, {
        min: Number(min),
        max: Number(max),
        size: bound,
        value: String(issue.params?.value ?? ''),
        values: String(issue.params?.values ?? ''),
        other: attributeName(String(issue.params?.other ?? ''), attributeNames),
      })
    : issue.message;
  return {
    code: 'ValidationException',
    status: '422',
    detail,
    meta: { source_field: field, rule: isLaravelRule(issue.message) ? issue.message : '' },
  };
}

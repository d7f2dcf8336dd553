import { describe, expect, it } from 'vitest';
import { toValidationErrors } from '../validation/validation-errors';
import { parseVariableRules, unknownVariableRule } from './egg-variable-rule-names';
import { checkVariableRules } from './egg-variable-rules';

/** The messages a user sees on the variable's card for `value` under `rules`; [] when it passes. */
const messages = (rules: string, value: string | null) =>
  toValidationErrors(checkVariableRules(['value'], rules, value)).map((error) => error.detail);

describe('checkVariableRules: each rule kind with Laravel’s semantics and words', () => {
  it.each([
    ['required', '', ['The value field is required.']],
    ['required', 'x', []],
    ['nullable|string', null, []],
    ['nullable|integer', '', []],
    ['string', null, ['The value must be a string.']],
    ['string|max:3', 'abcd', ['The value may not be greater than 3 characters.']],
    ['integer', '1.5', ['The value must be an integer.']],
    ['integer', '-12', []],
    ['numeric', '1e3', []],
    ['numeric', 'ten', ['The value must be a number.']],
    ['boolean', '1', []],
    ['boolean', '0', []],
    ['boolean', 'true', ['The value field must be true or false.']],
    ['in:true,false', 'true', []],
    ['in:true,false', 'yes', ['The selected value is invalid.']],
    ['not_in:root,admin', 'admin', ['The selected value is invalid.']],
    ['alpha', 'abc1', ['The value may only contain letters.']],
    ['alpha_num', '1.2.3', ['The value may only contain letters and numbers.']],
    ['alpha_dash', 'my-world_2', []],
    ['alpha_dash', 'my world', ['The value may only contain letters, numbers, and dashes.']],
    ['min:3', 'ab', ['The value must be at least 3 characters.']],
    ['integer|min:1024', '80', ['The value must be at least 1024.']],
    ['numeric|max:100', '101', ['The value may not be greater than 100.']],
    ['integer|between:1,100', '0', ['The value must be between 1 and 100.']],
    ['between:1,6', 'abcdefg', ['The value must be between 1 and 6 characters.']],
    ['size:4', 'abc', ['The value must be 4 characters.']],
    ['integer|size:4', '4', []],
    ['digits:4', '123', ['The value must be 4 digits.']],
    ['digits:4', '1234', []],
    ['digits_between:2,4', '12345', ['The value must be between 2 and 4 digits.']],
    ['regex:/^[0-9]+$/', '12a', ['The value format is invalid.']],
    ['regex:/^(latest|[0-9.]+)$/', 'latest', []],
    ['regex:/^(latest|[0-9.]+)$/', '1.20.4', []],
    ['regex:/^(LATEST)$/i', 'latest', []],
    ['not_regex:/\\s/', 'a b', ['The value format is invalid.']],
    ['url', 'https://example.com/pack.zip', []],
    ['url', 'example.com', ['The value format is invalid.']],
    ['ip', '10.0.0.1', []],
    ['ip', '::1', []],
    ['ip', '300.1.1.1', ['The value must be a valid IP address.']],
    ['ipv4', '::1', ['The value must be a valid IPv4 address.']],
    ['ipv6', 'fe80::1', []],
    ['email', 'admin@example.com', []],
    ['email', 'nope', ['The value must be a valid email address.']],
    ['uuid', '9b2f8d9e-1c0a-4b8e-9f1a-2b3c4d5e6f70', []],
    ['json', '{"a":1}', []],
    ['json', '{a}', ['The value must be a valid JSON string.']],
    ['starts_with:http,ftp', 'ssh://x', ['The value must start with one of the following: http, ftp.']],
    ['ends_with:.jar', 'server.jar', []],
    ['lowercase', 'Abc', ['The value must be lowercase.']],
    ['gt:0|integer', '0', ['The value must be greater than 0.']],
    ['accepted', '', ['The value must be accepted.']],
    ['sometimes|bail|string', 'ok', []],
    // Community eggs write `int` and `bool`: read as Laravel's integer and boolean.
    ['required|int', '1.5', ['The value must be an integer.']],
    ['required|bool', '1', []],
    ['nullable|string|', '', []],
    ['in:,true', '', []],
  ] as const)('%s with %j', (rules, value, expected) => {
    expect(messages(rules, value)).toEqual(expected);
  });

  it('lists one message per failed rule, in the order the rules are written', () => {
    expect(messages('required|string|max:2|in:a,b', 'xyz')).toEqual([
      'The value may not be greater than 2 characters.',
      'The selected value is invalid.',
    ]);
  });

  it('points issues at the path it is given (the Application API names environment.<ENV>)', () => {
    expect(checkVariableRules(['environment', 'PORT'], 'integer', 'x')[0]?.path).toEqual([
      'environment',
      'PORT',
    ]);
  });

  it('refuses every value for a pattern RE2 cannot read, rather than run it unbounded', () => {
    expect(messages('regex:/^(?=a)a$/', 'a')).toEqual(['The value format is invalid.']);
    expect(messages('regex:not-a-pattern', 'a')).toEqual(['The value format is invalid.']);
  });

  it('matches a catastrophic pattern against a long value in linear time', () => {
    const started = performance.now();
    expect(messages('regex:/^(a+)+$/', `${'a'.repeat(200_000)}b`)).toEqual(['The value format is invalid.']);
    expect(performance.now() - started).toBeLessThan(5_000);
  });
});

describe('parseVariableRules', () => {
  it('keeps a regex with pipes as one rule, and splits the rest at pipes', () => {
    expect(parseVariableRules('required|regex:/^(true|false)$/|max:5')).toEqual([
      { name: 'required', args: '' },
      { name: 'regex', args: '/^(true|false)$/' },
      { name: 'max', args: '5' },
    ]);
  });

  it('names the first rule it does not know', () => {
    expect(unknownVariableRule('required|string|max:20')).toBeNull();
    expect(unknownVariableRule('required|distinct_widget')).toBe('distinct_widget');
  });
});

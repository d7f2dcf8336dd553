import { describe, expect, it } from 'vitest';
import { IGNORE_LIMITS, ignoreRulesOverLimits } from './ignore-limits';

const rules = (count: number) => Array.from({ length: count }, (_, index) => `rule-${index}`);

describe('ignoreRulesOverLimits', () => {
  it('takes up to 1,000 rules of up to 512 characters, not counting comments, blanks or lines matching nothing', () => {
    const text = [
      '# header',
      '',
      ...rules(IGNORE_LIMITS.rules),
      '   ',
      '!',
      '///',
      `# ${'c'.repeat(900)}`,
    ].join('\r\n');
    expect(ignoreRulesOverLimits(text, 'The rules')).toBeUndefined();
    expect(ignoreRulesOverLimits(`  ${'x'.repeat(IGNORE_LIMITS.ruleLength)}  `, 'The rules')).toBeUndefined();
  });

  it('says which bound is passed, naming the line of a rule too long', () => {
    expect(ignoreRulesOverLimits(rules(IGNORE_LIMITS.rules + 1).join('\n'), 'The rules')).toBe(
      'The rules cannot be used: there are more than 1000 rules, at most 1000 are allowed.',
    );
    expect(ignoreRulesOverLimits(`a\n# b\n${'/'.repeat(IGNORE_LIMITS.ruleLength + 1)}`, '.pteroignore')).toBe(
      '.pteroignore cannot be used: line 3 is 513 characters long, at most 512 are allowed.',
    );
  });
});

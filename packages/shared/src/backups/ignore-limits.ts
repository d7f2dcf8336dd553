/**
 * Bounds on a backup's ignore rules (the panel's `ignored`, or the `.pteroignore` the daemon reads instead), one
 * constant for both sides: the panel refuses what the daemon would refuse, so no backup is accepted only to fail
 * on the node. Comments and blank lines are not counted.
 */
export const IGNORE_LIMITS = {
  rules: 1000,
  ruleLength: 512,
} as const;

/**
 * Why ignore rules (one gitignore pattern a line) are past {@link IGNORE_LIMITS}, as a sentence starting with
 * `source`; `undefined` when they are within. Lines are counted as the daemon's matcher reads them
 * (apps/daemon/src/glob/gitignore-pattern.ts): blank lines and `#` comments are not rules, and neither is a line of
 * only `!` and slashes (it matches nothing); the length is that of the trimmed line.
 */
export function ignoreRulesOverLimits(text: string, source: string): string | undefined {
  let line = 0;
  let rules = 0;
  for (const raw of text.split(/\r?\n/)) {
    line += 1;
    const trimmed = raw.trim();
    if (trimmed === '' || trimmed.startsWith('#')) continue;
    if (trimmed.length > IGNORE_LIMITS.ruleLength) {
      return `${source} cannot be used: line ${line} is ${trimmed.length} characters long, at most ${IGNORE_LIMITS.ruleLength} are allowed.`;
    }
    if (/^!?\/*$/.test(trimmed)) continue;
    rules += 1;
    if (rules > IGNORE_LIMITS.rules) {
      return `${source} cannot be used: there are more than ${IGNORE_LIMITS.rules} rules, at most ${IGNORE_LIMITS.rules} are allowed.`;
    }
  }
  return undefined;
}

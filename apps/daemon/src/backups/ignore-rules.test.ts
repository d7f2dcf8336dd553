import { compilePattern } from '@aerie/daemon/glob/gitignore-pattern';
import { ignoreRulesOverLimits, IGNORE_LIMITS as SHARED_LIMITS } from '@aerie/shared/backups/ignore-limits';
import { describe, expect, it } from 'vitest';
import { BackupIgnoreRules, IGNORE_LIMITS, IgnoreRulesError } from './ignore-rules';

/** [rules, path, is a directory, ignored?] */
const TABLE: [rules: string, path: string, directory: boolean, ignored: boolean][] = [
  // No rules: everything is kept.
  ['', 'server.properties', false, false],
  ['# only a comment\n\n   \n', 'a.txt', false, false],
  // A plain name matches at any depth, files and folders alike.
  ['logs', 'logs', true, true],
  ['logs', 'logs/latest.log', false, true],
  ['logs', 'world/logs/old.log', false, true],
  ['logs', 'logsbook.txt', false, false],
  // `*` wildcards.
  ['*.jar', 'server.jar', false, true],
  ['*.jar', 'plugins/worldedit.jar', false, true],
  ['*.jar', 'jar.txt', false, false],
  ['cache/*', 'cache/a.bin', false, true],
  ['world*/region', 'world_nether/region/r.0.0.mca', false, true],
  ['*', 'anything/at/all.txt', false, true],
  // `**` spans folders; `?` is one character.
  ['tmp/**/*.tmp', 'tmp/a/b/c.tmp', false, true],
  ['tmp/**/*.tmp', 'tmp/a/b/c.txt', false, false],
  ['file?.txt', 'file1.txt', false, true],
  ['file?.txt', 'file10.txt', false, false],
  // A leading `/` anchors to the server root.
  ['/cache', 'cache/x', false, true],
  ['/cache', 'mods/cache/x', false, false],
  // A trailing `/` matches folders only (and what is inside them).
  ['backups/', 'backups', true, true],
  ['backups/', 'backups/old.zip', false, true],
  ['backups/', 'backups', false, false],
  // `!` takes a path back in; the last rule that matches wins.
  ['*.log\n!important.log', 'important.log', false, false],
  ['*.log\n!important.log', 'other.log', false, true],
  ['!important.log\n*.log', 'important.log', false, true],
  ['logs\n!logs/keep.log', 'logs/keep.log', false, false],
  ['logs\n!logs/keep.log', 'logs/other.log', false, true],
  ['*\n!server.properties', 'server.properties', false, false],
  ['*\n!server.properties', 'world/level.dat', false, true],
  ['*\n!/world/\n!/world/**', 'world/level.dat', false, false],
  ['*.jar\n!server.jar\nserver.jar', 'server.jar', false, true],
  // Windows line endings and surrounding blanks.
  ['  *.zip\r\n!keep.zip  \r\n', 'keep.zip', false, false],
  ['  *.zip\r\n!keep.zip  \r\n', 'old.zip', false, true],
  // A leading slash on the path itself is the root.
  ['/world', '/world/level.dat', false, true],
  // Case counts, as for Wings and git on Linux.
  ['*.jar', 'Server.JAR', false, false],
  // `**` in the middle spans no folder or several; a trailing `/**` is what is inside, not the folder itself.
  ['a/**/b', 'a/b', true, true],
  ['a/**/b', 'a/x/y/b/file', false, true],
  ['a/**', 'a', true, false],
  ['a/**', 'a/x', false, true],
  ['**/cache', 'deep/down/cache/x', false, true],
  // Classes, escapes, `**` inside a name is `*`.
  ['[!a-c]x', 'dx', false, true],
  ['[!a-c]x', 'bx', false, false],
  ['\\#notes', '#notes', false, true],
  ['\\!bang', '!bang', false, true],
  ['a**z', 'abcz', false, true],
  ['a**z', 'ab/cz', false, false],
  // A `[` never closed matches nothing (git's wildmatch).
  ['[abc', '[abc', false, false],
];

/** The finding: an 85-character rule of nested `**` against an 86-character folder path (minutes of regex). */
const PATHOLOGICAL_RULE = `**/${'a/**/'.repeat(16)}b/`;
const PATHOLOGICAL_FOLDER = 'a/'.repeat(43);

describe('backup ignore rules', () => {
  it.each(TABLE)('%j on %s (directory: %s) → ignored: %s', (rules, path, directory, ignored) => {
    expect(new BackupIgnoreRules(rules).ignores(path, directory)).toBe(ignored);
  });

  it('walks into ignored folders only when a negation could take something back', () => {
    expect(new BackupIgnoreRules('logs\n*.tmp').canSkipIgnoredDirectories).toBe(true);
    expect(new BackupIgnoreRules('logs\n!logs/keep.log').canSkipIgnoredDirectories).toBe(false);
    expect(new BackupIgnoreRules('').isEmpty).toBe(true);
    expect(new BackupIgnoreRules('# comment\n!').isEmpty).toBe(true);
  });

  it('matches the pathological rule of the finding in at most rule × path steps', () => {
    expect([PATHOLOGICAL_RULE.length, PATHOLOGICAL_FOLDER.length]).toEqual([85, 86]);
    const bound = PATHOLOGICAL_RULE.length * PATHOLOGICAL_FOLDER.length;
    const rules = new BackupIgnoreRules(PATHOLOGICAL_RULE);
    expect(rules.ignores(PATHOLOGICAL_FOLDER, true)).toBe(false);
    expect(rules.steps).toBeLessThanOrEqual(bound);
    // The same shape that does match is found as cheaply.
    const matching = new BackupIgnoreRules(PATHOLOGICAL_RULE);
    expect(matching.ignores(`${PATHOLOGICAL_FOLDER}b/c`, false)).toBe(true);
    expect(matching.steps).toBeLessThanOrEqual(bound);
  });

  it('costs rule × path at most for star-heavy names too, and the turn-giving form agrees', async () => {
    const rule = `${'*a'.repeat(40)}*b`;
    const name = 'a'.repeat(200);
    const rules = new BackupIgnoreRules(rule);
    expect(await rules.ignoresInTurn(name, false)).toBe(false);
    expect(rules.steps).toBeLessThanOrEqual(rule.length * name.length);
    expect(await rules.ignoresInTurn(`${name}b`, false)).toBe(true);
  });

  it('refuses too many rules or a rule too long, saying which, and counts neither comments nor blanks', () => {
    const many = Array.from({ length: IGNORE_LIMITS.rules + 1 }, (_, index) => `file-${index}`).join('\n');
    expect(() => new BackupIgnoreRules(many, '.pteroignore')).toThrow(
      new IgnoreRulesError(
        `.pteroignore cannot be used: there are more than ${IGNORE_LIMITS.rules} rules, at most ${IGNORE_LIMITS.rules} are allowed.`,
      ),
    );
    const long = `# fine\n\n${'x'.repeat(IGNORE_LIMITS.ruleLength + 1)}`;
    expect(() => new BackupIgnoreRules(long)).toThrow(
      `The ignore rules cannot be used: line 3 is ${IGNORE_LIMITS.ruleLength + 1} characters long, at most ${IGNORE_LIMITS.ruleLength} are allowed.`,
    );
    const comments = `${'# comment\n'.repeat(5000)}${'y'.repeat(IGNORE_LIMITS.ruleLength)}\n`;
    expect(new BackupIgnoreRules(comments).ignores('y'.repeat(IGNORE_LIMITS.ruleLength))).toBe(true);
  });

  it('counts rules as the panel does: one shared constant, and a line counts exactly when it compiles', () => {
    expect(IGNORE_LIMITS).toBe(SHARED_LIMITS);
    const full = Array.from({ length: IGNORE_LIMITS.rules }, (_, index) => `r${index}`).join('\n');
    for (const line of ['!', '/', '!//', '  !  ', '#x', '', ' \t', '\\#x', '!\\ ', 'a', '!a', '/a/', '**']) {
      const counted = ignoreRulesOverLimits(`${full}\r\n${line}`, 'x') !== undefined;
      expect([line, counted]).toEqual([line, compilePattern(line) !== undefined]);
    }
  });
});

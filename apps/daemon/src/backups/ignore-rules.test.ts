import { describe, expect, it } from 'vitest';
import { BackupIgnoreRules } from './ignore-rules';

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
];

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
});

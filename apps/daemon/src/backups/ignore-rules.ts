import ignore, { type Ignore } from 'ignore';

/** `.pteroignore` is read only when it is a regular file of at most this many bytes (Wings: 32 KiB). */
export const IGNORE_FILE_MAX_BYTES = 32 * 1024;
export const IGNORE_FILE_NAME = '.pteroignore';

interface Rule {
  negated: boolean;
  matcher: Ignore;
}

/**
 * A backup's ignore rules: one gitignore pattern per line (`*`, `**`, `?`, `[a-z]`, a leading `/` anchors to the
 * server root, a trailing `/` matches directories only, `#` starts a comment), and a leading `!` takes a path back
 * in. Every rule that matches a path or one of its parent directories has its say and the last one wins, so
 * `logs` then `!logs/keep.log` keeps that one file (unlike git, which cannot re-include below an excluded folder;
 * Wings' matcher behaves this way too).
 */
export class BackupIgnoreRules {
  readonly #rules: Rule[];

  constructor(text: string) {
    this.#rules = [];
    for (const raw of text.split(/\r?\n/)) {
      const line = raw.replace(/^\s+/, '');
      if (line === '' || line.startsWith('#')) continue;
      const negated = line.startsWith('!');
      const pattern = negated ? line.slice(1) : line;
      if (pattern.trim() === '') continue;
      // One matcher per rule: the library gives each pattern git's meaning, the order is ours to keep.
      this.#rules.push({ negated, matcher: ignore({ allowRelativePaths: true }).add(pattern) });
    }
  }

  get isEmpty(): boolean {
    return this.#rules.length === 0;
  }

  /**
   * A directory that is ignored can be skipped whole only when no rule could take something inside it back.
   */
  get canSkipIgnoredDirectories(): boolean {
    return !this.#rules.some((rule) => rule.negated);
  }

  /** Whether the path (relative to the server root, `/`-separated, no leading `/`) stays out of the backup. */
  ignores(relativePath: string, isDirectory = false): boolean {
    const path = relativePath.replace(/^\/+/, '').replace(/\/+$/, '');
    if (path === '') return false;
    const subject = isDirectory ? `${path}/` : path;
    let ignored = false;
    for (const rule of this.#rules) {
      // `ignores` also matches when a parent directory is covered by the pattern.
      if (rule.matcher.ignores(subject)) ignored = !rule.negated;
    }
    return ignored;
  }
}
